import type { ChatConfig, RedisConfig } from '../config/chat-config.js';
import type { Replica } from '../redis/replica.js';
import type { Adapters, AdaptersDeps, SystemAdapters } from './types.js';
import { ClosingOrder } from './closing-order.js';

/**
 * With `REDIS_URL`, this process joins the replicas sharing that Redis: their ledger, conversations,
 * drift lease and turn log replace the in-process ones. Loaded only then (the Redis client with it).
 */
export async function joinReplicaAdapters(
  config: ChatConfig,
  redis: RedisConfig,
  { clock, logger }: Pick<AdaptersDeps, 'clock' | 'logger'>,
): Promise<Adapters> {
  let replica: Replica;
  try {
    const { joinReplicas } = await import('../redis/replica.js');
    replica = await joinReplicas({ redis, config, logger, clock });
  } catch (error) {
    throw new Error(`REDIS_URL: ${(error as Error).message}`, { cause: error });
  }
  // Recorded in the order joinReplicas opened them: the connection first, the drift lease last.
  const opened = new ClosingOrder(logger);
  opened.add('Redis connection', replica);
  const ledger = opened.add('mood ledger', replica.ledger);
  const turns = opened.add('turn log', replica.turns);
  const system: SystemAdapters = {
    ledger,
    conversations: opened.add('conversation store', replica.conversations),
    driftLease: opened.add('drift lease', replica.driftLease),
  };
  return {
    mode: 'redis',
    turns,
    sharedSessionSecret: replica.sharedSessionSecret,
    forSystem: async () => system,
    adoptPredecessorWrites: () => undefined,
    close: () => opened.close(),
  };
}
