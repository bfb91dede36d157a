import type { ChatConfig } from '../config/chat-config.js';
import type { Adapters, AdaptersDeps } from './types.js';

export type { AdapterMode, Adapters, AdaptersDeps, SystemAdapters } from './types.js';

/**
 * The one place that picks the adapters: in process when told; with `REDIS_URL`, this process joins
 * the replicas sharing that Redis (their ledger, conversations, drift lease, turn log and session
 * secret); otherwise the embedded database beside the emotions file. Each mode's modules load only
 * when it is picked: one process alone never loads a Redis client. A failure to open says what could
 * not be opened, and leaves nothing open.
 */
export async function adapters(config: ChatConfig, deps: AdaptersDeps): Promise<Adapters> {
  if (deps.inProcess) return (await import('./in-process-adapters.js')).inProcessAdapters(config, deps);
  if (config.redis !== undefined) return (await import('./replica-adapters.js')).joinReplicaAdapters(config, config.redis, deps);
  return (await import('./embedded-adapters.js')).embeddedAdapters(config, deps);
}
