import type { Redis } from 'ioredis';
import {
  addExchange,
  DEFAULT_MEMORY_EXCHANGES,
  exchangeTurns,
  untimed,
  UNKNOWN_TIME,
  type ConversationStore,
  type ConversationTurn,
  type ExchangeMarks,
  type ExchangeTimes,
  type TimedTurn,
  type TurnVersion,
} from '../conversations/conversation-store.js';
import { execAll, unavailable } from './connection.js';
import type { RedisKeys } from './keys.js';

export interface RedisConversationStoreOptions {
  /** Shared with the other adapters and closed by its owner. */
  readonly client: Redis;
  readonly keys: RedisKeys;
  /** A conversation untouched this long is forgotten (`SESSION_IDLE_MS`); Redis expires it. */
  readonly idleMs: number;
  readonly maxExchanges?: number;
}

function isTurn(value: unknown): value is ConversationTurn {
  const turn = value as ConversationTurn;
  return (turn?.role === 'user' || turn?.role === 'assistant') && typeof turn.content === 'string';
}

function isVersion(value: unknown): value is TurnVersion {
  const version = value as TurnVersion;
  return typeof version?.content === 'string' && typeof version.at === 'string';
}

/** A stored turn as the visitor gets it: a field this version cannot read is left out (a turn an older version stored has no time). */
function readTurn(turn: ConversationTurn & Record<string, unknown>): TimedTurn {
  const { turn: id, stopped, alternatives } = turn;
  return {
    role: turn.role,
    content: turn.content,
    at: typeof turn.at === 'string' ? turn.at : UNKNOWN_TIME,
    ...(typeof id === 'string' ? { turn: id } : {}),
    ...(stopped === true ? { stopped } : {}),
    ...(Array.isArray(alternatives) ? { alternatives: alternatives.filter(isVersion) } : {}),
  };
}

/** The stored turns the visitor gets, oldest first; a turn this version cannot read is left out rather than failing the visitor's chat. */
function readTurns(items: readonly string[]): TimedTurn[] {
  return items.flatMap((item) => {
    try {
      const turn: unknown = JSON.parse(item);
      return isTurn(turn) ? [readTurn(turn as ConversationTurn & Record<string, unknown>)] : [];
    } catch {
      return [];
    }
  });
}

/** Tries of a replace whose list another replica keeps writing. */
const REPLACE_ATTEMPTS = 5;

/**
 * Conversations on Redis, so a visitor can land on any replica: one list per session of its
 * turns as JSON, trimmed to the last exchanges, expiring after the idle time (renewed on every
 * read and write, as the in-process store does). A failure rejects with RedisUnavailableError.
 */
export class RedisConversationStore implements ConversationStore {
  readonly #options: RedisConversationStoreOptions;
  readonly #maxTurns: number;

  constructor(options: RedisConversationStoreOptions) {
    this.#options = options;
    this.#maxTurns = 2 * (options.maxExchanges ?? DEFAULT_MEMORY_EXCHANGES);
  }

  async history(sessionId: string): Promise<readonly ConversationTurn[]> {
    return untimed(await this.messages(sessionId));
  }

  async messages(sessionId: string): Promise<readonly TimedTurn[]> {
    const { client, keys, idleMs } = this.#options;
    const key = keys.conversation(sessionId);
    let items: string[];
    try {
      [items] = (await execAll(client.multi().lrange(key, 0, -1).pexpire(key, idleMs))) as [string[]];
    } catch (error) {
      throw unavailable('read the conversation', error);
    }
    return readTurns(items);
  }

  async remember(sessionId: string, message: string, reply: string, times?: ExchangeTimes, marks: ExchangeMarks = {}): Promise<void> {
    if (marks.replace) return this.#replaceLast(sessionId, { message, reply, times }, marks);
    const { client, keys, idleMs } = this.#options;
    const key = keys.conversation(sessionId);
    const turns = exchangeTurns(message, reply, times, marks);
    try {
      await execAll(
        client
          .multi()
          .rpush(key, ...turns.map((turn) => JSON.stringify(turn)))
          .ltrim(key, -this.#maxTurns, -1)
          .pexpire(key, idleMs),
      );
    } catch (error) {
      throw unavailable('remember the conversation', error);
    }
  }

  /**
   * A regenerate's or an edit's exchange in place of the last one: the list is read, changed and
   * written back in one transaction, made again if another replica wrote the list meanwhile.
   */
  async #replaceLast(
    sessionId: string,
    exchange: { readonly message: string; readonly reply: string; readonly times?: ExchangeTimes },
    marks: ExchangeMarks,
  ): Promise<void> {
    const { client, keys, idleMs } = this.#options;
    const key = keys.conversation(sessionId);
    try {
      for (let attempt = 0; attempt < REPLACE_ATTEMPTS; attempt += 1) {
        await client.watch(key);
        // Read outside a MULTI: its EXEC would end the watch.
        const turns = addExchange(readTurns(await client.lrange(key, 0, -1)), exchange, marks).slice(-this.#maxTurns);
        const written = await client
          .multi()
          .del(key)
          .rpush(key, ...turns.map((turn) => JSON.stringify(turn)))
          .pexpire(key, idleMs)
          .exec();
        if (written !== null) return;
      }
    } catch (error) {
      await client.unwatch().catch(() => undefined);
      throw unavailable('remember the conversation', error);
    }
    throw unavailable('remember the conversation', new Error(`the conversation kept changing (${REPLACE_ATTEMPTS} tries)`));
  }

  async forget(sessionId: string): Promise<void> {
    try {
      await this.#options.client.del(this.#options.keys.conversation(sessionId));
    } catch (error) {
      throw unavailable('forget the conversation', error);
    }
  }

  /** The client belongs to the composition root, which closes it after every adapter. */
  async close(): Promise<void> {}
}
