/** Injection token of {@link RegistrationOptions} (tests shorten the waits). */
export const REGISTRATION_OPTIONS = Symbol('REGISTRATION_OPTIONS');

export interface RegistrationOptions {
  /** Calls made at most (the first one included). */
  readonly attempts: number;
  /** Wait before the second call; doubled each time up to {@link maxBackoffMs}. */
  readonly backoffMs: number;
  readonly maxBackoffMs: number;
  /** Time allowed for one call. */
  readonly timeoutMs: number;
}

/** Five calls over about 15 s (waits of 1, 2, 4 and 8 s), enough for a main service that starts at the same time. */
export const DEFAULT_REGISTRATION_OPTIONS: RegistrationOptions = Object.freeze({
  attempts: 5,
  backoffMs: 1_000,
  maxBackoffMs: 16_000,
  timeoutMs: 10_000,
});
