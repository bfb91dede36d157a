import type { Database } from 'lmdb';
import { LRUCache } from 'lru-cache';
import { epochMs } from '../runtime/clock.js';
import type { ChatExchange } from '../mood-ledger/mood-ledger.js';
import {
  DEFAULT_MEMORY_EXCHANGES,
  UNKNOWN_TIME,
  type ConversationStore,
  type ConversationTurn,
  type ExchangeMarks,
  type ExchangeTimes,
  type TimedTurn,
} from '../conversations/conversation-store.js';
import { HeldConversations } from '../conversations/held-conversations.js';
import { conversationBytes, sessionCacheOptions, withExchange, type SessionBounds } from '../conversations/session-bounds.js';

/** One session's record on disk: its turns, and when it last changed (the idle time counts from it after a restart). */
export interface StoredConversation {
  /** Each with the time it was said; a record written before turns had times has none. */
  readonly turns: readonly (ConversationTurn & Partial<Omit<TimedTurn, 'role' | 'content'>>)[];
  readonly touched: number;
}

/** A record's turns, each with a time (a record written before turns had times has none). */
function timedTurns(record: StoredConversation): TimedTurn[] {
  return record.turns.map((turn) => ({ ...turn, at: turn.at ?? UNKNOWN_TIME }));
}

/** An exchange as it is staged; `remember` may leave out its times. */
type StagedExchange = Omit<ChatExchange, 'times'> & { readonly times?: ExchangeTimes } & ExchangeMarks;

export interface LmdbConversationStoreOptions extends SessionBounds {
  /** Exchanges kept per session. */
  readonly maxExchanges?: number;
}

/**
 * The conversations in the embedded database, bounded as the in-process store is (count, idle
 * time, bytes): the same LRU cache of the sessions' turns decides, and every session it forgets
 * is removed from disk. Reads come from that cache and never wait for the disk (a chat's reads
 * cost as in the in-process store); an exchange is written through in the mood's commit (`stage`,
 * inside the caller's transaction), so it lasts exactly when the chat's change does. At open, the
 * cache is rebuilt from disk in the order the sessions last changed.
 */
export class LmdbConversationStore extends HeldConversations implements ConversationStore {
  readonly #db: Database<StoredConversation, string>;
  readonly #options: LmdbConversationStoreOptions;
  readonly #maxTurns: number;

  constructor(db: Database<StoredConversation, string>, options: LmdbConversationStoreOptions) {
    super(
      new LRUCache<string, readonly TimedTurn[]>({
        ...sessionCacheOptions<readonly TimedTurn[]>(options, conversationBytes),
        // Forgotten (pushed out, idle, deleted): gone from disk too. A replaced value ('set') is rewritten by its writer.
        dispose: (_turns, session, reason) => {
          if (reason !== 'set') db.remove(session).catch(() => undefined);
        },
      }),
    );
    this.#db = db;
    this.#options = options;
    this.#maxTurns = 2 * (options.maxExchanges ?? DEFAULT_MEMORY_EXCHANGES);
    this.#rebuild();
  }

  async remember(sessionId: string, message: string, reply: string, times?: ExchangeTimes, marks?: ExchangeMarks): Promise<void> {
    this.#db.transactionSync(() => this.stage([{ session: sessionId, message, reply, times, ...marks }]))();
  }

  /** Forgets the conversation on disk first (a failed removal forgets nothing and says so), then in the index. */
  async forget(sessionId: string): Promise<void> {
    await this.#db.remove(sessionId);
    this.sessions.delete(sessionId);
  }

  /**
   * Writes the conversations with these exchanges (in the order they were said), each session's
   * once, inside the caller's write transaction; returns what to call once that transaction has
   * committed (the index learns of them).
   */
  stage(exchanges: readonly StagedExchange[]): () => void {
    const staged = new Map<string, readonly TimedTurn[]>();
    for (const { session, ...exchange } of exchanges) {
      staged.set(
        session,
        withExchange(staged.get(session) ?? this.sessions.get(session) ?? [], exchange, this.#maxTurns, this.#options.maxBytes),
      );
    }
    const touched = epochMs(this.#options.clock);
    for (const [session, turns] of staged) this.#db.putSync(session, { turns, touched });
    return () => {
      for (const [session, turns] of staged) this.sessions.set(session, turns);
    };
  }

  /**
   * Takes what is on disk now into the cache: under `hub serve --supervise`, the process that drained
   * after a model failure wrote its last exchanges to the same database after this one had opened it.
   * Every write goes through to disk, so the disk holds each session's latest conversation.
   */
  adoptDisk(): void {
    // The latest commit, not the snapshot this process read last.
    this.#db.resetReadTxn();
    for (const { key, value } of this.#db.getRange()) {
      this.sessions.set(key, timedTurns(value), { start: value.touched });
    }
  }

  async close(): Promise<void> {
    // The index is dropped with the process; clearing it would dispose, that is delete, every conversation.
  }

  /** The cache from disk, least recently changed first; what has been idle too long, or no longer fits, is removed. */
  #rebuild(): void {
    const now = epochMs(this.#options.clock);
    const sessions: { session: string; turns: readonly TimedTurn[]; touched: number }[] = [];
    for (const { key, value } of this.#db.getRange()) {
      if (now - value.touched > this.#options.idleMs) this.#db.remove(key).catch(() => undefined);
      else sessions.push({ session: key, turns: timedTurns(value), touched: value.touched });
    }
    sessions.sort((a, b) => a.touched - b.touched);
    for (const { session, turns, touched } of sessions) this.sessions.set(session, turns, { start: touched });
  }
}
