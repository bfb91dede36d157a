/** How long the supervisor waits before it starts the service again. */
export interface Backoff {
  /** The wait after the first failure at startup in a row. */
  readonly initialMs: number;
  /** The longest wait, however many failures in a row. */
  readonly maxMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { initialMs: 500, maxMs: 30_000 };

/**
 * The wait before the next start: none after a service that was ready (a model failure, a crash:
 * it comes back at once), doubling with each start in a row that failed before it was ready.
 */
export function restartDelayMs(failuresAtStartup: number, backoff: Backoff = DEFAULT_BACKOFF): number {
  if (failuresAtStartup === 0) return 0;
  return Math.min(backoff.maxMs, backoff.initialMs * 2 ** (failuresAtStartup - 1));
}
