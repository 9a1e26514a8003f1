/** The reason an AbortSignal aborted, as an Error (a signal aborted without a reason carries a DOMException). */
export function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error
    ? reason
    : new Error(typeof reason === 'string' ? reason : 'the operation was aborted');
}
