/** Which user-supplied input an error refers to; it only changes the message prefix. */
export type FilterErrorSource = 'filter' | 'sort' | 'fields';

/**
 * The one error type the filter, sort and fields parsers throw for bad input. The REST layer maps it to a 400.
 * Messages name the offending position and token but never contain generated SQL, so they are safe to return
 * to clients verbatim.
 */
export class FilterError extends Error {
  override readonly name = 'FilterError';

  constructor(
    /** 0-based offset (UTF-16 code units) into the expression where the problem was detected. */
    readonly position: number,
    /** The message without the "Invalid filter at position N:" prefix. */
    readonly reason: string,
    readonly source: FilterErrorSource = 'filter',
  ) {
    super(`Invalid ${source} at position ${position}: ${reason}`);
  }
}
