import type { SessionKey } from '../bus/events.js';

/** The events of a streamed turn: a piece of the reply, then `done` or `error`, which end it. */
export type TurnEvent = 'token' | 'done' | 'error';

/** One frame of a turn as it went out: its SSE `id` (1, 2, 3… within the turn), event and JSON data. */
export interface TurnFrame {
  readonly id: number;
  readonly event: TurnEvent;
  readonly data: string;
}

/** `done` and `error` end a turn: nothing comes after them. */
export function endsTurn(event: TurnEvent): boolean {
  return event !== 'token';
}

/** A turn being written: each frame gets the next id. */
export interface TurnWriter {
  write(event: TurnEvent, data: string): TurnFrame;
}

/** What a tab that opens while a turn runs shows of it before its frames: the message, and what it redoes. */
export interface TurnSummary {
  readonly id: string;
  readonly message: string;
  readonly redo?: 'regenerate' | 'edit';
}

/** A reader following a turn; `close` stops it (the reader went away). */
export interface TurnFollower {
  /** The turn had ended when the reader came: every frame after `after` was sent already, and no more come. */
  readonly ended: boolean;
  close(): void;
}

/**
 * Where the frames of each streamed turn are kept while it runs and a short while after it ends, so
 * that a page that reloaded or lost its connection reads what it missed, exactly once, then the rest
 * live. In-process (`MemoryTurnLog`), or on Redis for replicas (`RedisTurnLog`): any replica can
 * resume any turn, and a replica that died has its turns ended by another.
 */
export interface TurnLog {
  /** Starts a turn of this visitor (its message: a regenerate's is empty). */
  open(turn: string, session: SessionKey, about: Omit<TurnSummary, 'id'>): TurnWriter;
  /**
   * Calls `onFrame` with each frame of the turn after id `after` (0: all), then with each new one
   * until the one that ends it. Resolves `undefined` for a turn unknown, gone, or another visitor's.
   */
  follow(turn: string, session: SessionKey, after: number, onFrame: (frame: TurnFrame) => void): Promise<TurnFollower | undefined>;
  /** The visitor's turns still running (on every replica, for replicas), oldest first. */
  running(session: SessionKey): Promise<readonly TurnSummary[]>;
  /** Stops its timers and connections. */
  close(): Promise<void>;
}

/** How long a turn's frames are kept after it ended: a page that comes back later reads the history instead. */
export const DEFAULT_TURN_KEEP_MS = 60_000;
