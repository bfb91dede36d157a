import { LRUCache } from 'lru-cache';
import {
  DEFAULT_MEMORY_EXCHANGES,
  type ConversationStore,
  type ExchangeMarks,
  type ExchangeTimes,
  type TimedTurn,
} from './conversation-store.js';
import { HeldConversations } from './held-conversations.js';
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
export class MemoryConversationStore extends HeldConversations implements ConversationStore {
  readonly #maxTurns: number;
  readonly #maxBytes: number;

  constructor(options: MemoryConversationStoreOptions) {
    super(new LRUCache(sessionCacheOptions<readonly TimedTurn[]>(options, conversationBytes)));
    this.#maxBytes = options.maxBytes;
    this.#maxTurns = 2 * (options.maxExchanges ?? DEFAULT_MEMORY_EXCHANGES);
  }

  async remember(sessionId: string, message: string, reply: string, times?: ExchangeTimes, marks?: ExchangeMarks): Promise<void> {
    const turns = withExchange(this.sessions.get(sessionId) ?? [], { message, reply, times, ...marks }, this.#maxTurns, this.#maxBytes);
    this.sessions.set(sessionId, turns);
  }

  async forget(sessionId: string): Promise<void> {
    this.sessions.delete(sessionId);
  }

  async close(): Promise<void> {
    this.sessions.clear();
  }
}
