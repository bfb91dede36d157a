/**
 * How long a turn's frames wait for the ones after them: at most one write to a visitor's socket per
 * 33 ms, 30 a second. A page shows the reply at the screen's rate (60 Hz), so two frames' worth
 * of pieces in one write look the same to a reader; each write is a system call here, a packet and a
 * wakeup of the browser there, and under load they were what a streamed chat spent most on.
 */
export const TURN_WRITE_WINDOW_MS = 33;

/** How a paced writer waits: the process's timers, or a test's. */
export interface PaceTimers {
  /** A monotonic time in ms. */
  now(): number;
  /** Runs `run` after `ms`; the function returned cancels it. */
  later(run: () => void, ms: number): () => void;
  /** Runs `run` once the work of this tick is done (before any I/O), as Node's own write corking does. */
  soon(run: () => void): void;
}

export const PROCESS_TIMERS: PaceTimers = {
  now: () => performance.now(),
  later: (run, ms) => {
    const timer = setTimeout(run, ms);
    return () => clearTimeout(timer);
  },
  soon: (run) => process.nextTick(run),
};

/** Frames for one socket, written in order, each one whole, fewer writes than frames when they come close together. */
export interface PacedWrites {
  /** Queues a frame: written at the end of this tick when the last write is a window old, else when its window ends. */
  add(text: string): void;
  /** Writes what is queued now: a turn's last frame must not wait. */
  flush(): void;
}

/**
 * A frame that comes after a quiet window goes out at the end of this tick, with any others of the
 * same tick: the first piece of a reply is not held back. Frames that come within the window after
 * a write wait for its end and go out together, in one write.
 */
export function pacedWrites(write: (text: string) => void, windowMs = TURN_WRITE_WINDOW_MS, timers = PROCESS_TIMERS): PacedWrites {
  let queued = '';
  let lastWrite = Number.NEGATIVE_INFINITY;
  // Set while a write is scheduled: the window's timer, or the end of this tick.
  let cancel: (() => void) | undefined;
  const flush = (): void => {
    cancel?.();
    cancel = undefined;
    if (queued === '') return;
    const text = queued;
    queued = '';
    lastWrite = timers.now();
    write(text);
  };
  return {
    add(text) {
      queued += text;
      if (cancel !== undefined) return;
      const wait = lastWrite + windowMs - timers.now();
      if (wait > 0) {
        cancel = timers.later(flush, wait);
        return;
      }
      // A flush before the end of the tick (the last frame) takes this one's place.
      let live = true;
      timers.soon(() => live && flush());
      cancel = () => (live = false);
    },
    flush,
  };
}
