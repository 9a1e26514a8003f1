/** Injection token of {@link ModelStoreOptions} (tests shorten the waits). */
export const MODEL_STORE_OPTIONS = Symbol('MODEL_STORE_OPTIONS');

/** Timing knobs of downloads and pulls; not configuration an operator needs, so not environment variables. */
export interface ModelStoreOptions {
  /** Failed attempts in a row (no new byte between them) before a file download gives up. */
  readonly retries: number;
  /** First wait before a retry; doubled each time, up to {@link maxBackoffMs}. */
  readonly backoffMs: number;
  readonly maxBackoffMs: number;
  /** A response that sends no byte for this long is dropped and retried. */
  readonly idleTimeoutMs: number;
  /** Redirects followed per request (the hub redirects large files to its CDN). */
  readonly maxRedirects: number;
  /**
   * How long a pull keeps going after its last SSE subscriber left, so a client that reconnects (or a second
   * pull of the same model) picks it up again; after that the download is cancelled.
   */
  readonly cancelGraceMs: number;
  /** Free space kept in reserve on the models volume beyond the model's size. */
  readonly freeSpaceMarginBytes: number;
  /** Period of SSE comment lines sent while a pull shows no progress, so proxies keep the stream open. */
  readonly keepAliveMs: number;
  /** Smallest interval between two `downloading` events (10 per second). */
  readonly minEventIntervalMs: number;
}

export const DEFAULT_MODEL_STORE_OPTIONS: ModelStoreOptions = Object.freeze({
  retries: 5,
  backoffMs: 1_000,
  maxBackoffMs: 16_000,
  idleTimeoutMs: 60_000,
  maxRedirects: 5,
  cancelGraceMs: 5_000,
  freeSpaceMarginBytes: 64 * 1024 * 1024,
  keepAliveMs: 15_000,
  minEventIntervalMs: 100,
});
