import type { SessionKey } from '../bus/events.js';
import { epochMs, systemClock, type Clock } from '../runtime/clock.js';
import {
  DEFAULT_TURN_KEEP_MS,
  endsTurn,
  type TurnFollower,
  type TurnFrame,
  type TurnLog,
  type TurnSummary,
  type TurnWriter,
} from './turn-log.js';

/** One turn's frames, and the readers following it live. */
interface KeptTurn {
  readonly session: SessionKey;
  readonly summary: TurnSummary;
  readonly frames: TurnFrame[];
  readonly followers: Set<(frame: TurnFrame) => void>;
  ended: boolean;
}

/**
 * The turns of this process, in memory: each frame is kept as the string that went out, and a turn
 * is dropped `keepMs` after its end, by the clock (injected: a test moves it instead of waiting).
 * Reading is synchronous (the frames kept, then the followers' set), so a frame written meanwhile
 * can be neither missed nor sent twice.
 */
export class MemoryTurnLog implements TurnLog {
  readonly #turns = new Map<string, KeptTurn>();
  readonly #keepMs: number;
  readonly #clock: Clock;
  /**
   * The ended turns, in the order they ended, with the time each may go: the one keep time makes it
   * also the order they go in, so dropping is a look at the head, on each use, with no timer per turn.
   */
  readonly #ended: { readonly turn: string; readonly kept: KeptTurn; readonly dropAt: number }[] = [];

  constructor(options: { readonly keepMs?: number; readonly clock?: Clock } = {}) {
    this.#keepMs = options.keepMs ?? DEFAULT_TURN_KEEP_MS;
    this.#clock = options.clock ?? systemClock;
  }

  /** Turns kept (running, or ended less than `keepMs` ago). */
  get size(): number {
    this.#drop();
    return this.#turns.size;
  }

  open(turn: string, session: SessionKey, about: Omit<TurnSummary, 'id'>): TurnWriter {
    this.#drop();
    const kept: KeptTurn = { session, summary: { id: turn, ...about }, frames: [], followers: new Set(), ended: false };
    this.#turns.set(turn, kept);
    return {
      write: (event, data) => {
        const frame = { id: kept.frames.length + 1, event, data };
        if (kept.ended) return frame;
        kept.frames.push(frame);
        for (const follower of kept.followers) follower(frame);
        if (endsTurn(event)) this.#end(turn, kept);
        return frame;
      },
    };
  }

  async follow(turn: string, session: SessionKey, after: number, onFrame: (frame: TurnFrame) => void): Promise<TurnFollower | undefined> {
    this.#drop();
    const kept = this.#turns.get(turn);
    if (kept === undefined || kept.session !== session) return undefined;
    for (const frame of kept.frames.slice(Math.max(0, after))) onFrame(frame);
    if (kept.ended) return { ended: true, close: () => undefined };
    kept.followers.add(onFrame);
    return { ended: false, close: () => kept.followers.delete(onFrame) };
  }

  async running(session: SessionKey): Promise<readonly TurnSummary[]> {
    return this.runningHere(session);
  }

  /** The visitor's turns running in this process, oldest first. */
  runningHere(session: SessionKey): TurnSummary[] {
    const turns: TurnSummary[] = [];
    for (const kept of this.#turns.values()) if (kept.session === session && !kept.ended) turns.push(kept.summary);
    return turns;
  }

  async close(): Promise<void> {
    this.#turns.clear();
    this.#ended.length = 0;
  }

  #end(turn: string, kept: KeptTurn): void {
    kept.ended = true;
    kept.followers.clear();
    this.#ended.push({ turn, kept, dropAt: epochMs(this.#clock) + this.#keepMs });
  }

  /** Drops the turns that ended `keepMs` ago or more. */
  #drop(): void {
    if (this.#ended.length === 0) return;
    const now = epochMs(this.#clock);
    let gone = 0;
    while (gone < this.#ended.length && this.#ended[gone]!.dropAt <= now) {
      const { turn, kept } = this.#ended[gone]!;
      if (this.#turns.get(turn) === kept) this.#turns.delete(turn);
      gone++;
    }
    if (gone > 0) this.#ended.splice(0, gone);
  }
}
