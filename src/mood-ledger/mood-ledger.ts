import type { MoodChange } from '../emotions/emotions.js';
import type { MoodExplanation } from '../emotions/mood-journal.js';
import type { EmotionState } from '../emotions/state.js';
import type { ExchangeMarks, ExchangeTimes } from '../conversations/conversation-store.js';

export type { MoodChange } from '../emotions/emotions.js';

/** A replied chat's exchange: what a ledger that keeps the conversations commits with the chat's change (an edit's in place of the last). */
export interface ChatExchange extends ExchangeMarks {
  readonly session: string;
  readonly message: string;
  readonly reply: string;
  /** When the message was accepted and the reply committed: the visitor's history shows them. */
  readonly times: ExchangeTimes;
}

/**
 * The one ordered record of mood changes. A change takes effect only when the ledger delivers
 * it to its subscribers; they see every change once, in one order. In-process the ledger
 * delivers at once; on Redis it delivers what the stream holds, on every replica alike.
 */
export interface MoodLedger {
  /**
   * Records a change (with its exchange, for a chat). Rejects when it cannot be recorded: then it
   * never takes effect. Only a ledger that `keepsConversations` looks at the exchange.
   */
  append(change: MoodChange, exchange?: ChatExchange): Promise<void>;
  /** Set when `append` commits a chat's exchange with its change, in one write (the embedded store): nobody else remembers it. */
  readonly keepsConversations?: boolean;
  /** The state a ledger that keeps it (the embedded store) had committed last when it opened. */
  readonly kept?: EmotionState;
  /** Told the state the system starts from, by a ledger that keeps the state itself (the embedded store). */
  startFrom?(state: EmotionState): void;
  /**
   * What moved the mood lately, as the ledger's readers share it (a replica's: every replica answers
   * the same, however late it started). Without it, the process's own journal answers.
   */
  explain?(): Promise<MoodExplanation>;
  /** Calls `apply` with every change from now on, in ledger order; returns the unsubscribe. */
  subscribe(apply: (change: MoodChange) => void): () => void;
  /** Releases timers and connections. */
  close(): Promise<void>;
}
