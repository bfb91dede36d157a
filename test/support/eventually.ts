/**
 * Polls `check` until it returns something other than undefined, for at most `ms`: for what a
 * real process or server does in its own time. Rejects naming `what` when time runs out.
 */
export async function eventually<T>(what: string, check: () => T | undefined | Promise<T | undefined>, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
