import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { DriftLease } from '../mood-ledger/drift-lease.js';
import { systemClock, type Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import type { RedisKeys } from './keys.js';

// Only the holder may extend or give up the lease: the value is the holder's own random id.
const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;
// Takes a free lease (1). A lease held by another with no expiry (left by a bug, by hand, or by a
// foreign tool) would stop the drift for good: it is given the lease time (-1), and taken once it lapses.
const ACQUIRE = `
if redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return 1 end
if redis.call('PTTL', KEYS[1]) == -1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return -1 end
return 0`;
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

export interface RedisDriftLeaseOptions {
  /** Shared with the other adapters and closed by its owner. */
  readonly client: Redis;
  readonly keys: RedisKeys;
  readonly logger: Logger;
  /** How long the lease lasts unless renewed; it is renewed every third of it. */
  readonly ttlMs: number;
  readonly clock?: Clock;
}

/**
 * The drift lease on Redis: `SET NX PX` takes it when free, the holder renews it every third of
 * its time. The holder counts it as held only until the time Redis would let it expire, measured
 * from before its last renewal was sent, less a tenth for clock rates: a holder cut off from Redis
 * stops drifting before another replica can take over, so no two replicas drift at once.
 */
export class RedisDriftLease implements DriftLease {
  readonly #options: RedisDriftLeaseOptions;
  readonly #holder = randomUUID();
  readonly #timer: NodeJS.Timeout;
  #validUntil = 0;
  #attempt: Promise<void> | undefined;
  #closed = false;

  constructor(options: RedisDriftLeaseOptions) {
    this.#options = options;
    this.#timer = setInterval(() => this.#try(), Math.max(1, Math.floor(options.ttlMs / 3)));
    this.#try();
  }

  held(): boolean {
    return this.#now() < this.#validUntil;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#timer);
    await this.#attempt;
    const wasHeld = this.held();
    this.#validUntil = 0;
    if (wasHeld) {
      const { client, keys } = this.#options;
      await client.eval(RELEASE, 1, keys.driftLease, this.#holder).catch(() => undefined);
    }
  }

  #now(): number {
    return (this.#options.clock ?? systemClock).now().getTime();
  }

  #try(): void {
    if (this.#attempt || this.#closed) return; // a renewal still waiting on a slow Redis
    this.#attempt = this.#acquireOrRenew().finally(() => (this.#attempt = undefined));
  }

  async #acquireOrRenew(): Promise<void> {
    const { client, keys, ttlMs, logger } = this.#options;
    const sentAt = this.#now();
    const wasHeld = this.held();
    let answer: unknown;
    try {
      answer = await client.eval(wasHeld ? RENEW : ACQUIRE, 1, keys.driftLease, this.#holder, ttlMs);
    } catch {
      return; // Redis away: the lease lapses by itself at #validUntil
    }
    const won = answer === 1;
    if (answer === -1)
      logger.warn(
        { key: keys.driftLease, leaseMs: ttlMs },
        'the drift lease is held with no expiry (not by a replica that renews it): it now lapses in the lease time, then a replica takes it over',
      );
    if (this.#closed) return;
    this.#validUntil = won ? sentAt + ttlMs - Math.ceil(ttlMs / 10) : 0;
    if (won && !wasHeld) logger.info({ leaseMs: ttlMs }, 'this replica holds the drift lease: it drifts the shared mood');
    if (!won && wasHeld) logger.warn('this replica lost the drift lease: another one drifts');
  }
}
