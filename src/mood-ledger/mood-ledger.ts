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

/** A delivered change and the whole state right after it. */
export type MoodDelivery = (change: MoodChange, state: EmotionState) => void;

/** Where a held state lives: the single process's embedded store, or the replicas' Redis. */
export interface HeldState {
  readonly state: EmotionState;
  readonly where: 'store' | 'shared';
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
  /**
   * The state the ledger's lasting copy held when it opened (the embedded store's, or the replicas'
   * shared one): the system starts from it, and the emotions file is only written from it. Absent
   * in-process, and from a store that holds nothing yet: the emotions file (or the defaults) is the start.
   */
  readonly held?: HeldState;
  /** Told the state the system starts from; a ledger that holds its own state ({@link held}) starts from that. */
  startFrom(state: EmotionState): void;
  /**
   * What moved the mood lately, as the ledger's readers share it (a replica's: every replica answers
   * the same, however late it started). Without it, the process's own journal answers.
   */
  explain?(): Promise<MoodExplanation>;
  /**
   * Calls `apply` with every change from now on, in ledger order, and the state after it: the
   * ledger folds each change once (`foldMoodChange`), and nobody folds it again. Returns the unsubscribe.
   */
  subscribe(apply: MoodDelivery): () => void;
  /** Releases timers and connections. */
  close(): Promise<void>;
}
