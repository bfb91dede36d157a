import { setTimeout as sleep } from 'node:timers/promises';

export interface EventuallyOptions {
  /** How long to keep trying before failing (default 10 s: generous, since the machine is shared). */
  readonly timeoutMs?: number;
  /** The pause between two tries (default 10 ms). */
  readonly intervalMs?: number;
}

/**
 * Waits until `check` returns something other than `false`, `undefined` or `null` (or resolves to it)
 * and resolves with that value. After `timeoutMs` it rejects with an error that says what was awaited,
 * so a test that waits for something that never comes fails with a message instead of hanging.
 * For a real process, socket or browser, never for time the test controls (use virtual time there).
 */
export async function eventually<T>(
  what: string,
  check: () => T | false | null | undefined | Promise<T | false | null | undefined>,
  { timeoutMs = 10_000, intervalMs = 10 }: EventuallyOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== false && value !== undefined && value !== null) return value;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const cause = lastError instanceof Error ? `: last try threw ${lastError.message}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${cause}`, { cause: lastError });
    }
    await sleep(intervalMs);
  }
}

/**
 * `promise`, or a rejection naming `what` once `timeoutMs` have passed without it settling: for an
 * end the test cannot poll for (a stream that ends, a process that exits, a line that is logged), so
 * that a change which never brings it fails in seconds instead of at the test runner's timeout.
 */
export function settlesWithin<T>(what: string, promise: Promise<T>, timeoutMs = 10_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
