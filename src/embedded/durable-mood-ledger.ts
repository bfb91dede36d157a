import { foldMoodChange, type EmotionState } from '../emotions/state.js';
import { LocalMoodLedger } from '../mood-ledger/local-mood-ledger.js';
import type { ChatExchange, HeldState, MoodChange } from '../mood-ledger/mood-ledger.js';

/** Where the durable ledger commits: the state after its latest changes, with their chats' exchanges, in one write. */
export interface MoodJournal {
  /** The state committed last when the journal opened, if any. */
  readonly kept: EmotionState | undefined;
  /** Commits `state` and the exchanges (in the order they were said) at once, or throws and commits nothing. */
  commit(state: EmotionState, exchanges: readonly ChatExchange[]): void;
  /** The state committed last on disk, when another process committed it after this one's last read or write. */
  committedElsewhere(): EmotionState | undefined;
}

/** A change folded but not yet committed, and its caller waiting to hear. */
interface Pending {
  readonly change: MoodChange;
  readonly next: EmotionState;
  readonly exchange: ChatExchange | undefined;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * The single process's ledger when the state lasts (no `REDIS_URL`): the embedded store holds the
 * mood's one lasting copy. A change takes effect only once the state it makes is committed to the
 * journal, with the chat's exchange in the same commit; then it is delivered, in append order, and
 * its `append` resolves. So a chat is answered only when its mood and its exchange survive the
 * process, and a commit that fails changes nothing: its chats are refused, as when Redis refuses an
 * append. The emotions file is written from what is delivered; a restart starts from the store.
 *
 * Commits are grouped: the changes appended while the event loop handles one round of I/O (the
 * replies that came in together) are committed at its end, in one transaction that writes the last
 * state once and each visitor's conversation once. Under load that is one commit for several
 * chats; alone, a chat waits for nothing but its own.
 */
export class DurableMoodLedger extends LocalMoodLedger {
  readonly keepsConversations = true;
  readonly held: HeldState | undefined;
  readonly #journal: MoodJournal;
  #pending: Pending[] = [];

  constructor(journal: MoodJournal) {
    super(journal.kept);
    this.#journal = journal;
    this.held = journal.kept === undefined ? undefined : { state: journal.kept, where: 'store' };
  }

  /** A store that held nothing takes the state the system starts from (the emotions file's, or the defaults) as its first. */
  override startFrom(state: EmotionState): void {
    if (this.held === undefined) this.#journal.commit(state, []);
    super.startFrom(state);
  }

  override append(change: MoodChange, exchange?: ChatExchange): Promise<void> {
    let next: EmotionState;
    try {
      // From the last change waiting for the commit: the group's changes fold in append order.
      next = foldMoodChange(this.#pending.at(-1)?.next ?? this.tip(), change);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      if (this.#pending.length === 0) setImmediate(() => this.#commitPending());
      this.#pending.push({ change, next, exchange: change.kind === 'chat' ? exchange : undefined, resolve, reject });
    });
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

  /** What was appended before the close is committed (or refused), not dropped. */
  override async close(): Promise<void> {
    this.#commitPending();
    await super.close();
  }

  #commitPending(): void {
    const group = this.#pending;
    if (group.length === 0) return;
    this.#pending = [];
    try {
      this.#journal.commit(
        group.at(-1)!.next,
        group.flatMap(({ exchange }) => (exchange === undefined ? [] : [exchange])),
      );
    } catch (error) {
      for (const { reject } of group) reject(error);
      return;
    }
    for (const { change, next, resolve, reject } of group) {
      try {
        this.settle(change, next);
        resolve();
      } catch (error) {
        reject(error);
      }
    }
  }
}
