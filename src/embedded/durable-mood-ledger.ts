import { foldMoodChange, type EmotionState } from '../emotions/state.js';
import { LocalMoodLedger, MoodLedgerClosedError } from '../mood-ledger/local-mood-ledger.js';
import type { ChatExchange, MoodChange, MoodLedger } from '../mood-ledger/mood-ledger.js';

/** Where the durable ledger commits: the state after each change, with a chat's exchange, in one write. */
export interface MoodJournal {
  /** The state committed last when the journal opened, if any: a restart starts from it when it is newer than the emotions file. */
  readonly kept: EmotionState | undefined;
  /** Commits `state` (and the exchange) at once, or throws and commits nothing. */
  commit(state: EmotionState, exchange: ChatExchange | undefined): void;
}

/**
 * The single process's ledger when the state lasts (no `REDIS_URL`): a change takes effect only
 * once the state it makes is committed to the journal (the embedded store), with the chat's
 * exchange in the same commit; then it is delivered at once, as the in-process ledger does. So a
 * chat is answered only when its mood and its exchange survive the process, and a commit that
 * fails changes nothing: the chat is refused, as when Redis refuses an append.
 */
export class DurableMoodLedger implements MoodLedger {
  readonly keepsConversations = true;
  readonly #journal: MoodJournal;
  readonly #delivery = new LocalMoodLedger();
  #state: EmotionState | undefined;
  #closed = false;

  constructor(journal: MoodJournal) {
    this.#journal = journal;
  }

  get kept(): EmotionState | undefined {
    return this.#journal.kept;
  }

  startFrom(state: EmotionState): void {
    this.#state = state;
  }

  async append(change: MoodChange, exchange?: ChatExchange): Promise<void> {
    if (this.#closed) throw new MoodLedgerClosedError();
    if (this.#state === undefined) throw new Error('the mood ledger does not know the state to start from yet');
    const next = foldMoodChange(this.#state, change);
    this.#journal.commit(next, change.kind === 'chat' ? exchange : undefined);
    this.#state = next;
    await this.#delivery.append(change);
  }

  subscribe(apply: (change: MoodChange) => void): () => void {
    return this.#delivery.subscribe(apply);
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#delivery.close();
  }
}
