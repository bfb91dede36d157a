/** How long the supervisor waits before it starts the service again. */
export interface Backoff {
  /** The wait after the first failure at startup in a row. */
  readonly initialMs: number;
  /** The longest wait, however many failures in a row. */
  readonly maxMs: number;
  /**
   * A service that ends sooner than this after it was ready has failed too soon: it counts as a
   * failure in a row, so a provider that fails every chat does not get a restart a second. One
   * that stays healthy this long resets the count.
   */
  readonly steadyMs: number;
}

/** 0.5 s, 1 s, 2 s, … up to 30 s; a service healthy for a minute starts the count again. */
export const DEFAULT_BACKOFF: Backoff = { initialMs: 500, maxMs: 30_000, steadyMs: 60_000 };

/**
 * The wait before the next start: none after a service that ran steadily (a model failure, a
 * crash: it comes back at once), doubling with each start in a row that failed before it was
 * ready or soon after.
 */
export function restartDelayMs(failuresInARow: number, backoff: Pick<Backoff, 'initialMs' | 'maxMs'> = DEFAULT_BACKOFF): number {
  if (failuresInARow === 0) return 0;
  return Math.min(backoff.maxMs, backoff.initialMs * 2 ** (failuresInARow - 1));
}

/** What follows a service's end: the failures in a row so far, and the wait before the next start. */
export interface NextStart {
  readonly failuresInARow: number;
  readonly delayMs: number;
}

/**
 * After a service ended, `readyForMs` after it was ready (undefined: it never was): one that ran
 * for `steadyMs` resets the count and comes back at once; any other is one more failure in a row.
 * The first of a ready service's failures still comes back at once (a model failure is a blip);
 * from the second on, and for every start that was never ready, the wait doubles.
 */
export function nextStart(failuresInARow: number, readyForMs: number | undefined, backoff: Backoff = DEFAULT_BACKOFF): NextStart {
  if (readyForMs !== undefined && readyForMs >= backoff.steadyMs) return { failuresInARow: 0, delayMs: 0 };
  const failures = failuresInARow + 1;
  return { failuresInARow: failures, delayMs: readyForMs !== undefined && failures === 1 ? 0 : restartDelayMs(failures, backoff) };
}
