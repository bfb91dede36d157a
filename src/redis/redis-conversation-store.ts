import type { Appraisal } from '../emotions/emotions.js';
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
import type { Logger } from '../runtime/logger.js';

export interface RedisConversationStoreOptions {
  /** Shared with the other adapters and closed by its owner. */
  readonly client: Redis;
  readonly keys: RedisKeys;
  /** A conversation untouched this long is forgotten (`SESSION_IDLE_MS`); Redis expires it. */
  readonly idleMs: number;
  readonly maxExchanges?: number;
  /** Where a conversation key of another type (not a list) is reported. */
  readonly logger?: Logger;
}

/** Redis's answer to a list command on a key that holds a string, a hash, …: no retry makes it work. */
function wrongType(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('WRONGTYPE');
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
  const { turn: id, stopped, alternatives, appraisal } = turn;
  return {
    role: turn.role,
    content: turn.content,
    at: typeof turn.at === 'string' ? turn.at : UNKNOWN_TIME,
    // Written by this service's own appraisal (the stream's entries are checked; the conversation only shows it).
    ...(typeof appraisal === 'object' && appraisal !== null ? { appraisal: appraisal as Appraisal } : {}),
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
      if (!wrongType(error)) throw unavailable('read the conversation', error);
      await this.#replaceForeign(key);
      return [];
    }
    return readTurns(items);
  }

  async remember(sessionId: string, message: string, reply: string, times?: ExchangeTimes, marks: ExchangeMarks = {}): Promise<void> {
    if (marks.replace) return this.#replaceLast(sessionId, { message, reply, times }, marks);
    const { client, keys, idleMs } = this.#options;
    const key = keys.conversation(sessionId);
    const turns = exchangeTurns(message, reply, times, marks);
    const append = () =>
      execAll(
        client
          .multi()
          .rpush(key, ...turns.map((turn) => JSON.stringify(turn)))
          .ltrim(key, -this.#maxTurns, -1)
          .pexpire(key, idleMs),
      );
    try {
      await append().catch(async (error: unknown) => {
        if (!wrongType(error)) throw error;
        await this.#replaceForeign(key);
        await append();
      });
    } catch (error) {
      throw unavailable('remember the conversation', error);
    }
  }

  /**
   * A conversation key that holds something other than a list (written by another tool, or by hand)
   * would refuse this visitor's every chat: it is reported and removed, so the conversation starts
   * again. Only a key of the wrong type is removed (`TYPE` checked in the same script).
   */
  async #replaceForeign(key: string): Promise<void> {
    const { client, logger } = this.#options;
    const removed = await client
      .eval(
        "local t = redis.call('TYPE', KEYS[1]).ok if t ~= 'list' and t ~= 'none' then redis.call('DEL', KEYS[1]) return t end return false",
        1,
        key,
      )
      .catch((error: unknown) => {
        throw unavailable('replace a conversation key of another type', error);
      });
    if (typeof removed === 'string')
      logger?.warn({ key, type: removed }, `a conversation key held a ${removed}, not a list: removed, the conversation starts again`);
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

  /** The client belongs to the replica's adapters (src/adapters/), which quit it after every adapter. */
  async close(): Promise<void> {}
}
