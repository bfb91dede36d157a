import type { Redis } from 'ioredis';
import {
  DEFAULT_MEMORY_EXCHANGES,
  exchangeTurns,
  untimed,
  UNKNOWN_TIME,
  type ConversationStore,
  type ConversationTurn,
  type ExchangeTimes,
  type TimedTurn,
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
    // A turn this version cannot read is left out rather than failing the visitor's chat.
    return items.flatMap((item) => {
      try {
        const turn: unknown = JSON.parse(item);
        if (!isTurn(turn)) return [];
        // A turn an older version stored has no time.
        const at = typeof (turn as Partial<TimedTurn>).at === 'string' ? (turn as TimedTurn).at : UNKNOWN_TIME;
        return [{ role: turn.role, content: turn.content, at }];
      } catch {
        return [];
      }
    });
  }

  async remember(sessionId: string, message: string, reply: string, times?: ExchangeTimes): Promise<void> {
    const { client, keys, idleMs } = this.#options;
    const key = keys.conversation(sessionId);
    const turns = exchangeTurns(message, reply, times);
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
