import type { MoodChange } from '../emotions/emotions.js';

export type { MoodChange } from '../emotions/emotions.js';

/**
 * The one ordered record of mood changes. A change takes effect only when the ledger delivers
 * it to its subscribers; they see every change once, in one order. In-process the ledger
 * delivers at once; on Redis it delivers what the stream holds, on every replica alike.
 */
export interface MoodLedger {
  /** Records a change. Rejects when it cannot be recorded: then it never takes effect. */
  append(change: MoodChange): Promise<void>;
  /** Calls `apply` with every change from now on, in ledger order; returns the unsubscribe. */
  subscribe(apply: (change: MoodChange) => void): () => void;
  /** Releases timers and connections. */
  close(): Promise<void>;
}
