import { recordDate } from '../../common/records/record-id';
import { DateMacro } from './ast';

/** Values of PocketBase's datetime macros; all UTC, dates in PocketBase's `2006-01-02 15:04:05.000Z` format. */
export function macroValue(name: DateMacro, now: Date): string | number {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const d = now.getUTCDate();
  const at = (...parts: [number, number, number, number?, number?, number?, number?]): string =>
    recordDate(new Date(Date.UTC(...parts)));
  switch (name) {
    case '@now':
      return recordDate(now);
    case '@yesterday':
      return at(
        y,
        m,
        d - 1,
        now.getUTCHours(),
        now.getUTCMinutes(),
        now.getUTCSeconds(),
        now.getUTCMilliseconds(),
      );
    case '@tomorrow':
      return at(
        y,
        m,
        d + 1,
        now.getUTCHours(),
        now.getUTCMinutes(),
        now.getUTCSeconds(),
        now.getUTCMilliseconds(),
      );
    case '@second':
      return now.getUTCSeconds();
    case '@minute':
      return now.getUTCMinutes();
    case '@hour':
      return now.getUTCHours();
    case '@weekday':
      return now.getUTCDay();
    case '@day':
      return d;
    case '@month':
      return m + 1;
    case '@year':
      return y;
    case '@todayStart':
      return at(y, m, d);
    case '@todayEnd':
      return at(y, m, d, 23, 59, 59, 999);
    case '@monthStart':
      return at(y, m, 1);
    case '@monthEnd':
      return at(y, m + 1, 0, 23, 59, 59, 999);
    case '@yearStart':
      return at(y, 0, 1);
    case '@yearEnd':
      return at(y, 11, 31, 23, 59, 59, 999);
  }
}
