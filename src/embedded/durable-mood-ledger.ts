import type { EmotionState } from '../emotions/state.js';
import { LocalMoodLedger } from '../mood-ledger/local-mood-ledger.js';
import type { ChatExchange, HeldState, MoodChange } from '../mood-ledger/mood-ledger.js';

/** Where the durable ledger commits: the state after each change, with a chat's exchange, in one write. */
export interface MoodJournal {
  /** The state committed last when the journal opened, if any. */
  readonly kept: EmotionState | undefined;
  /** Commits `state` (and the exchange) at once, or throws and commits nothing. */
  commit(state: EmotionState, exchange: ChatExchange | undefined): void;
  /** The state committed last on disk, when another process committed it after this one's last read or write. */
  committedElsewhere(): EmotionState | undefined;
}

/**
 * The single process's ledger when the state lasts (no `REDIS_URL`): the embedded store holds the
 * mood's one lasting copy. A change takes effect only once the state it makes is committed to the
 * journal, with the chat's exchange in the same commit; then it is delivered at once, as the
 * in-process ledger does. So a chat is answered only when its mood and its exchange survive the
 * process, and a commit that fails changes nothing: the chat is refused, as when Redis refuses an
 * append. The emotions file is written from what is delivered; a restart starts from the store.
 */
export class DurableMoodLedger extends LocalMoodLedger {
  readonly keepsConversations = true;
  readonly held: HeldState | undefined;
  readonly #journal: MoodJournal;

  constructor(journal: MoodJournal) {
    super(journal.kept);
    this.#journal = journal;
    this.held = journal.kept === undefined ? undefined : { state: journal.kept, where: 'store' };
  }

  /** A store that held nothing takes the state the system starts from (the emotions file's, or the defaults) as its first. */
  override startFrom(state: EmotionState): void {
    if (this.held === undefined) this.#journal.commit(state, undefined);
    super.startFrom(state);
  }

  /**
   * Under `hub serve --supervise`, once the process before this one has exited: the mood it committed
   * while it drained (after this one had opened the store) becomes this one's, delivered as a
   * snapshot as a replica takes the shared one. The last commit on disk wins: a change this process
   * committed before it is replaced, as the predecessor's would be by a later one of its own.
   */
  async adoptDisk(): Promise<boolean> {
    const state = this.#journal.committedElsewhere();
    if (state === undefined) return false;
    await this.append({ kind: 'snapshot', state, at: state.lastUpdated });
    return true;
  }

  protected override commit(next: EmotionState, change: MoodChange, exchange: ChatExchange | undefined): void {
    this.#journal.commit(next, change.kind === 'chat' ? exchange : undefined);
  }
}
