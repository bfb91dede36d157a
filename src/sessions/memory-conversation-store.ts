import { LRUCache } from 'lru-cache';
import { epochMs, type Clock } from '../runtime/clock.js';
import { DEFAULT_MEMORY_EXCHANGES, type ConversationStore, type ConversationTurn } from './conversation-store.js';

export interface MemoryConversationStoreOptions {
  /** Sessions kept; beyond it the least recently used is forgotten (`MAX_SESSIONS`). */
  readonly maxSessions: number;
  /** A session untouched this long is forgotten (`SESSION_IDLE_MS`). */
  readonly idleMs: number;
  /** Exchanges kept per session. */
  readonly maxExchanges?: number;
  /** Drives the idle expiry; tests pass a fixed clock. */
  readonly clock: Clock;
}

/**
 * The in-process conversation store: each session's last exchanges, in an LRU cache bounded in
 * count and idle time (lru-cache's TTL, renewed on every read and write). Stale entries are not
 * swept by a timer: they are dropped when read, or pushed out by newer sessions, so the bound holds
 * without a timer. Lost on restart, like the memory store of docs/specification.md#states.
 */
export class MemoryConversationStore implements ConversationStore {
  readonly #sessions: LRUCache<string, readonly ConversationTurn[]>;
  readonly #maxTurns: number;

  constructor(options: MemoryConversationStoreOptions) {
    this.#maxTurns = 2 * (options.maxExchanges ?? DEFAULT_MEMORY_EXCHANGES);
    this.#sessions = new LRUCache({
      max: options.maxSessions,
      ttl: options.idleMs,
      updateAgeOnGet: true,
      // lru-cache reads this clock for the TTL; the default (performance.now) cannot be driven by a test.
      perf: { now: () => epochMs(options.clock) },
      // 0: read that clock at every check, rather than caching it behind a 1 ms timer.
      ttlResolution: 0,
    });
  }

  /** Sessions currently held (stale ones included until they are touched or pushed out). */
  get size(): number {
    return this.#sessions.size;
  }

  async history(sessionId: string): Promise<readonly ConversationTurn[]> {
    return this.#sessions.get(sessionId) ?? [];
  }

  async remember(sessionId: string, message: string, reply: string): Promise<void> {
    const turns = this.#sessions.get(sessionId) ?? [];
    const next: ConversationTurn[] = [...turns, { role: 'user', content: message }, { role: 'assistant', content: reply }];
    this.#sessions.set(sessionId, next.slice(-this.#maxTurns));
  }

  async close(): Promise<void> {
    this.#sessions.clear();
  }
}
