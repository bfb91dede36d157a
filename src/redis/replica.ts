import type { Redis } from 'ioredis';
import type { ChatConfig, RedisConfig } from '../config/chat-config.js';
import { defaultState, type EmotionState } from '../emotions/state.js';
import { loadEmotionsFile } from '../persistence/emotions-file.js';
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import { withoutCredentials } from '../runtime/url-credentials.js';
import type { SharedSecret } from '../config/session-secret.js';
import { connectRedis, DEFAULT_COMMAND_TIMEOUT_MS } from './connection.js';
import { redisKeys } from './keys.js';
import { RedisConversationStore } from './redis-conversation-store.js';
import { RedisDriftLease } from './redis-drift-lease.js';
import { RedisMoodLedger } from './redis-mood-ledger.js';
import { RedisTurnLog } from './redis-turn-log.js';
import { RedisVisitorRelay } from './redis-visitor-relay.js';

/** What makes this process one replica: the shared adapters, and the state they start from. */
export interface Replica {
  readonly ledger: RedisMoodLedger;
  readonly conversations: RedisConversationStore;
  readonly driftLease: RedisDriftLease;
  /** The streamed turns, readable from every replica. */
  readonly turns: RedisTurnLog;
  /** The visitors' news and stops between replicas. */
  readonly visitors: RedisVisitorRelay;
  /** The session secret the replicas share (the first one to ask stores its candidate). */
  readonly sharedSessionSecret: SharedSecret;
  /** Quits the command and subscriber connections: after every adapter has closed (see src/adapters/). */
  close(): Promise<void>;
}

export interface JoinOptions {
  readonly redis: RedisConfig;
  readonly config: Pick<ChatConfig, 'emotionsFile' | 'sessionIdleMs'>;
  readonly logger: Logger;
  readonly clock: Clock;
}

/**
 * Joins the replicas on `redis.url`: three connections (commands, the blocking stream read, and the
 * visitors' channel),
 * the mood ledger loaded from the snapshot and the stream (the first replica ever seeds it with its
 * emotions file, or the defaults), the conversation store and the drift lease. Redis unreachable:
 * RedisUnavailableError naming the URL without its password, and nothing left open.
 */
export async function joinReplicas(options: JoinOptions): Promise<Replica> {
  const { redis, config, logger, clock } = options;
  const opened: Redis[] = [];
  try {
    const client = await connectRedis(redis.url, { name: 'commands', logger, commandTimeoutMs: DEFAULT_COMMAND_TIMEOUT_MS });
    opened.push(client);
    const reader = await connectRedis(redis.url, { name: 'mood-stream', logger });
    opened.push(reader);
    const subscriber = await connectRedis(redis.url, { name: 'visitors', logger });
    opened.push(subscriber);
    const keys = redisKeys(redis.prefix);
    // Read only when Redis has no snapshot yet: a replica's own file is a local copy once it has joined.
    const seed = async (): Promise<EmotionState> =>
      (await loadEmotionsFile(config.emotionsFile)) ?? defaultState(clock.now().toISOString());
    const ledger = await RedisMoodLedger.open({ client, reader, keys, logger, seed, clock });
    const turns = new RedisTurnLog({ client, keys, logger, clock });
    const visitors = new RedisVisitorRelay({
      client,
      subscriber,
      keys,
      logger,
      replica: turns.replica,
      runningOn: (session) => turns.runningOn(session),
    });
    logger.info(
      { redis: withoutCredentials(redis.url), prefix: redis.prefix },
      `this process is a replica on ${withoutCredentials(redis.url)}: the mood, its stream and the conversations are shared there`,
    );
    return {
      ledger,
      conversations: new RedisConversationStore({ client, keys, idleMs: config.sessionIdleMs, logger }),
      driftLease: new RedisDriftLease({ client, keys, logger, ttlMs: redis.driftLeaseMs, clock }),
      turns,
      visitors,
      sharedSessionSecret: async (candidate) => {
        await client.set(keys.sessionSecret, candidate, 'NX');
        return (await client.get(keys.sessionSecret)) ?? candidate;
      },
      close: async () => {
        await subscriber.quit().catch(() => subscriber.disconnect());
        await client.quit().catch(() => client.disconnect());
      },
    };
  } catch (error) {
    for (const connection of opened) connection.disconnect();
    throw error;
  }
}
