import type { Database } from 'lmdb';
import { LRUCache } from 'lru-cache';
import { epochMs } from '../runtime/clock.js';
import type { ChatExchange } from '../mood/mood-ledger.js';
import { DEFAULT_MEMORY_EXCHANGES, type ConversationStore, type ConversationTurn } from '../sessions/conversation-store.js';
import { conversationBytes, sessionCacheOptions, withExchange, type SessionBounds } from '../sessions/session-bounds.js';

/** One session's record on disk: its turns, and when it last changed (the idle time counts from it after a restart). */
export interface StoredConversation {
  readonly turns: readonly ConversationTurn[];
  readonly touched: number;
}

export interface LmdbConversationStoreOptions extends SessionBounds {
  /** Exchanges kept per session. */
  readonly maxExchanges?: number;
}

/**
 * The conversations in the embedded database, bounded as the in-process store is (count, idle
 * time, bytes): an LRU index of the sessions (their sizes only) decides, and every session it
 * forgets is removed from disk. Reads are synchronous lmdb reads; an exchange is written in the
 * mood's commit (`stage`, inside the caller's transaction), so it lasts exactly when the chat's
 * change does. At open, the index is rebuilt from disk in the order the sessions last changed.
 */
export class LmdbConversationStore implements ConversationStore {
  readonly #db: Database<StoredConversation, string>;
  readonly #index: LRUCache<string, number>;
  readonly #options: LmdbConversationStoreOptions;
  readonly #maxTurns: number;

  constructor(db: Database<StoredConversation, string>, options: LmdbConversationStoreOptions) {
    this.#db = db;
    this.#options = options;
    this.#maxTurns = 2 * (options.maxExchanges ?? DEFAULT_MEMORY_EXCHANGES);
    this.#index = new LRUCache<string, number>({
      ...sessionCacheOptions<number>(options, (bytes) => bytes),
      // Forgotten (pushed out, idle, deleted): gone from disk too. A replaced value ('set') is rewritten by its writer.
      dispose: (_bytes, session, reason) => {
        if (reason !== 'set') this.#db.remove(session).catch(() => undefined);
      },
    });
    this.#rebuild();
  }

  /** Sessions currently held (stale ones included until they are touched or pushed out). */
  get size(): number {
    return this.#index.size;
  }

  /** The held conversations' text in UTF-8 bytes. */
  get bytes(): number {
    return this.#index.calculatedSize;
  }

  async history(sessionId: string): Promise<readonly ConversationTurn[]> {
    if (this.#index.get(sessionId) === undefined) return [];
    return this.#db.get(sessionId)?.turns ?? [];
  }

  async remember(sessionId: string, message: string, reply: string): Promise<void> {
    this.#db.transactionSync(() => this.stage({ session: sessionId, message, reply }))();
  }

  /**
   * Writes the session's conversation with one more exchange, inside the caller's write
   * transaction; returns what to call once that transaction has committed (the index learns of it).
   */
  stage({ session, message, reply }: ChatExchange): () => void {
    const known = this.#index.has(session) ? (this.#db.get(session)?.turns ?? []) : [];
    const turns = withExchange(known, message, reply, this.#maxTurns, this.#options.maxBytes);
    this.#db.putSync(session, { turns, touched: epochMs(this.#options.clock) });
    return () => this.#index.set(session, conversationBytes(turns));
  }

  async close(): Promise<void> {
    // The index is dropped with the process; clearing it would dispose, that is delete, every conversation.
  }

  /** The index from disk, least recently changed first; what has been idle too long, or no longer fits, is removed. */
  #rebuild(): void {
    const now = epochMs(this.#options.clock);
    const sessions: { session: string; bytes: number; touched: number }[] = [];
    for (const { key, value } of this.#db.getRange()) {
      if (now - value.touched > this.#options.idleMs) this.#db.remove(key).catch(() => undefined);
      else sessions.push({ session: key, bytes: conversationBytes(value.turns), touched: value.touched });
    }
    sessions.sort((a, b) => a.touched - b.touched);
    for (const { session, bytes, touched } of sessions) this.#index.set(session, bytes, { start: touched });
  }
}
