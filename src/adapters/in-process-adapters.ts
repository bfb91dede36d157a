import type { ChatConfig } from '../config/chat-config.js';
import { MemoryConversationStore } from '../conversations/memory-conversation-store.js';
import { ALWAYS_HELD } from '../mood-ledger/drift-lease.js';
import { LocalMoodLedger } from '../mood-ledger/local-mood-ledger.js';
import type { Adapters, AdaptersDeps, SystemAdapters } from './types.js';
import { ClosingOrder } from './closing-order.js';
import { sessionBoundsOf } from './session-bounds-of.js';

export interface InProcessAdapters extends Adapters {
  /** The system's adapters, at once: nothing to open. */
  readonly system: SystemAdapters;
}

/**
 * The mood and the conversations in this process only (bounded by MAX_SESSIONS and SESSION_IDLE_MS),
 * lost with it; the drift lease always held. What `adapters` picks when told, and what a test of the
 * actor system on its own is given.
 */
export function inProcessAdapters(config: ChatConfig, deps: Pick<AdaptersDeps, 'clock' | 'logger'>): InProcessAdapters {
  const opened = new ClosingOrder(deps.logger);
  const system: SystemAdapters = {
    ledger: opened.add('mood ledger', new LocalMoodLedger()),
    conversations: opened.add('conversation store', new MemoryConversationStore(sessionBoundsOf(config, deps.clock))),
    driftLease: ALWAYS_HELD,
  };
  return {
    mode: 'in-process',
    system,
    forSystem: async () => system,
    adoptPredecessorWrites: () => undefined,
    close: () => opened.close(),
  };
}
