import { epochMs, type Clock } from './clock.js';

/**
 * `write`, called at most once per `periodMs` of the clock: a condition that repeats (a failing
 * second reader, on every chat) is one line a minute in the log, not one a call. Calls in between
 * are counted and the next line says how many were left out.
 */
export function onceAWhile(clock: Clock, periodMs: number, write: (line: string) => void): (line: string) => void {
  let last = Number.NEGATIVE_INFINITY;
  let skipped = 0;
  return (line) => {
    const now = epochMs(clock);
    if (now - last < periodMs) {
      skipped += 1;
      return;
    }
    last = now;
    write(skipped === 0 ? line : `${line} (and ${skipped} more like it since the last line)`);
    skipped = 0;
  };
}
