import { LRUCache } from 'lru-cache';
import {
  DEFAULT_MEMORY_EXCHANGES,
  untimed,
  type ConversationStore,
  type ConversationTurn,
  type ExchangeTimes,
  type TimedTurn,
} from './conversation-store.js';
import { conversationBytes, sessionCacheOptions, withExchange, type SessionBounds } from './session-bounds.js';

export interface MemoryConversationStoreOptions extends SessionBounds {
  /** Exchanges kept per session. */
  readonly maxExchanges?: number;
}

/**
 * The in-process conversation store: each session's last exchanges, in an LRU cache bounded in
 * count, idle time and bytes (see session-bounds.ts). Lost on restart, like the memory store of
 * docs/specification.md#states; `hub serve`'s default is the embedded store, which keeps them on disk.
 */
export class MemoryConversationStore implements ConversationStore {
  readonly #sessions: LRUCache<string, readonly TimedTurn[]>;
  readonly #maxTurns: number;
  readonly #maxBytes: number | undefined;

  constructor(options: MemoryConversationStoreOptions) {
    this.#maxBytes = options.maxBytes;
    this.#maxTurns = 2 * (options.maxExchanges ?? DEFAULT_MEMORY_EXCHANGES);
    this.#sessions = new LRUCache(sessionCacheOptions<readonly TimedTurn[]>(options, conversationBytes));
  }

  /** Sessions currently held (stale ones included until they are touched or pushed out). */
  get size(): number {
    return this.#sessions.size;
  }

  /** The held conversations' text in UTF-8 bytes. */
  get bytes(): number {
    return this.#sessions.calculatedSize;
  }

  async history(sessionId: string): Promise<readonly ConversationTurn[]> {
    return untimed(await this.messages(sessionId));
  }

  async messages(sessionId: string): Promise<readonly TimedTurn[]> {
    return this.#sessions.get(sessionId) ?? [];
  }

  async remember(sessionId: string, message: string, reply: string, times?: ExchangeTimes): Promise<void> {
    const turns = withExchange(this.#sessions.get(sessionId) ?? [], { message, reply, times }, this.#maxTurns, this.#maxBytes);
    this.#sessions.set(sessionId, turns);
  }

  async forget(sessionId: string): Promise<void> {
    this.#sessions.delete(sessionId);
  }

  async close(): Promise<void> {
    this.#sessions.clear();
  }
}
