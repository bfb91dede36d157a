import type { SessionKey } from '../bus/events.js';
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
 * is dropped `keepMs` after its end. Reading is synchronous (the frames kept, then the followers'
 * set), so a frame written meanwhile can be neither missed nor sent twice.
 */
export class MemoryTurnLog implements TurnLog {
  readonly #turns = new Map<string, KeptTurn>();
  readonly #keepMs: number;
  readonly #timers = new Set<NodeJS.Timeout>();

  constructor(options: { readonly keepMs?: number } = {}) {
    this.#keepMs = options.keepMs ?? DEFAULT_TURN_KEEP_MS;
  }

  /** Turns kept (running, or ended less than `keepMs` ago). */
  get size(): number {
    return this.#turns.size;
  }

  open(turn: string, session: SessionKey, about: Omit<TurnSummary, 'id'>): TurnWriter {
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
    const kept = this.#turns.get(turn);
    if (kept === undefined || kept.session !== session) return undefined;
    for (const frame of kept.frames.slice(Math.max(0, after))) onFrame(frame);
    if (kept.ended) return { ended: true, close: () => undefined };
    kept.followers.add(onFrame);
    return { ended: false, close: () => kept.followers.delete(onFrame) };
  }

  running(session: SessionKey): readonly TurnSummary[] {
    const turns: TurnSummary[] = [];
    for (const kept of this.#turns.values()) if (kept.session === session && !kept.ended) turns.push(kept.summary);
    return turns;
  }

  async close(): Promise<void> {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    this.#turns.clear();
  }

  #end(turn: string, kept: KeptTurn): void {
    kept.ended = true;
    kept.followers.clear();
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      if (this.#turns.get(turn) === kept) this.#turns.delete(turn);
    }, this.#keepMs);
    timer.unref();
    this.#timers.add(timer);
  }
}
