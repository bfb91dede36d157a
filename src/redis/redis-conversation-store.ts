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
