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
