import type { Redis } from 'ioredis';
import type { DeliveryDedup } from './delivery-dedup.js';
import type { Logger } from '../runtime/logger.js';
import { connectRedis, DEFAULT_COMMAND_TIMEOUT_MS } from '../redis/connection.js';
import { DEFAULT_REDIS_PREFIX } from '../config/defaults.js';
import { redisKeys, type RedisKeys } from '../redis/keys.js';

/** How long a delivery id is remembered: the Hub retries a delivery within hours, not days. */
export const DELIVERY_MEMORY_S = 24 * 60 * 60;

/** Claimed delivery ids on Redis: `SET NX EX` (24 h), so one replica wins each delivery. */
export class RedisDeliveryDedup implements DeliveryDedup {
  readonly #client: Redis;
  readonly #keys: RedisKeys;

  constructor(client: Redis, prefix = DEFAULT_REDIS_PREFIX) {
    this.#client = client;
    this.#keys = redisKeys(prefix);
  }

  /** Connects to `url` (RedisUnavailableError naming it without its password when it cannot). */
  static async connect(url: string, logger: Logger): Promise<RedisDeliveryDedup> {
    return new RedisDeliveryDedup(
      await connectRedis(url, { name: 'webhook-deliveries', logger, commandTimeoutMs: DEFAULT_COMMAND_TIMEOUT_MS }),
    );
  }

  async claim(webhookId: string): Promise<boolean> {
    return (await this.#client.set(this.#keys.webhookDelivery(webhookId), '1', 'EX', DELIVERY_MEMORY_S, 'NX')) === 'OK';
  }

  async release(webhookId: string): Promise<void> {
    await this.#client.del(this.#keys.webhookDelivery(webhookId));
  }

  async close(): Promise<void> {
    this.#client.disconnect();
  }
}
