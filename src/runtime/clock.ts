/** The only way code reads the time, so tests and replays can drive it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** The clock's time in epoch milliseconds; the system clock's without making a Date. */
export function epochMs(clock: Clock): number {
  return clock === systemClock ? Date.now() : clock.now().getTime();
}

/**
 * The clock's time as ISO 8601, formatted at most once per millisecond: the bus stamps every event
 * and `/health` every answer, and making and formatting a Date each time showed in their profiles.
 */
export function isoStamps(clock: Clock): () => string {
  let lastMs = Number.NaN;
  let last = '';
  return () => {
    const ms = epochMs(clock);
    if (ms !== lastMs) {
      lastMs = ms;
      last = new Date(ms).toISOString();
    }
    return last;
  };
}

/** A clock that stands still until told to move; for tests and replays. */
export function fixedClock(start: Date | string): Clock & { advance(ms: number): void; set(date: Date | string): void } {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current),
    advance: (ms) => {
      current += ms;
    },
    set: (date) => {
      current = new Date(date).getTime();
    },
  };
}
