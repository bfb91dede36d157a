// What the adapters are, apart from the factory that picks them (adapters.ts): each adapter module
// takes these types, and the factory loads those modules lazily, so the types cannot live with it
// without the folder importing itself in a circle.
import type { ConversationStore } from '../conversations/conversation-store.js';
import type { SharedSecret } from '../config/session-secret.js';
import type { DriftLease } from '../mood-ledger/drift-lease.js';
import type { MoodLedger } from '../mood-ledger/mood-ledger.js';
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import type { TurnLog } from '../turns/turn-log.js';

/** Where the mood and the conversations live: this process only, the embedded database, or a shared Redis. */
export type AdapterMode = 'in-process' | 'embedded' | 'redis';

/** What the actor system is given. In process, embedded or on Redis: the actors cannot tell which. */
export interface SystemAdapters {
  /** The only way the emotions change. */
  readonly ledger: MoodLedger;
  /** Each visitor's conversation. */
  readonly conversations: ConversationStore;
  /** Who drifts: always this process, unless replicas share the mood. */
  readonly driftLease: DriftLease;
}

export interface Adapters {
  readonly mode: AdapterMode;
  /** A replica's turn log, readable from every replica; without one the HTTP app keeps its own in process. */
  readonly turns?: TurnLog;
  /** A replica's session secret, the one the replicas share; without one it is the one beside the emotions file. */
  readonly sharedSessionSecret?: SharedSecret;
  /**
   * The system's adapters. The embedded database opens on the first call, which the composition
   * root makes once its server listens: lmdb's native module is not on the way to the first answer.
   */
  forSystem(): Promise<SystemAdapters>;
  /** Under `hub serve --supervise`, once the process before this one has exited: its last conversations are read from disk (embedded only). */
  adoptPredecessorWrites(): void;
  /**
   * Closes what was opened, in the reverse order of opening, after the system has stopped. A close
   * that fails is logged and the rest still close. Idempotent.
   */
  close(): Promise<void>;
}

export interface AdaptersDeps {
  readonly clock: Clock;
  readonly logger: Logger;
  /** Keep the mood and the conversations in this process only, with no database and no Redis (tests, the bench's in-memory run). */
  readonly inProcess?: boolean;
}
