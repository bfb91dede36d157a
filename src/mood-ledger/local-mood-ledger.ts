import { foldMoodChange, type EmotionState } from '../emotions/state.js';
import type { MoodChange, MoodDelivery, MoodLedger } from './mood-ledger.js';

/** The ledger refuses changes once closed, as a shared one does when its connection is gone. */
export class MoodLedgerClosedError extends Error {
  override readonly name = 'MoodLedgerClosedError';
  constructor() {
    super('the mood ledger is closed');
  }
}

/**
 * The in-process mood ledger: one process is the only replica, so a change is recorded by folding
 * it into the state and delivering both, at once and in append order, to every subscriber before
 * `append` resolves. The state lasts only in the emotions file the persistence actor writes from
 * what is delivered (the embedded store's ledger, below, keeps it itself).
 */
export class LocalMoodLedger implements MoodLedger {
  readonly #subscribers = new Set<MoodDelivery>();
  #state: EmotionState | undefined;
  #closed = false;

  /** `start` is the state to fold from, when known before the system loads one (tests, the bench). */
  constructor(start?: EmotionState) {
    this.#state = start;
  }

  startFrom(state: EmotionState): void {
    this.#state = state;
  }

  async append(change: MoodChange): Promise<void> {
    this.settle(change, foldMoodChange(this.tip(), change));
  }

  /** The state the next change folds from; refuses once closed, or before the start is known. */
  protected tip(): EmotionState {
    if (this.#closed) throw new MoodLedgerClosedError();
    if (this.#state === undefined) throw new Error('the mood ledger does not know the state to start from yet');
    return this.#state;
  }

  /** The change takes effect: `next` is the state, and every subscriber hears of both. */
  protected settle(change: MoodChange, next: EmotionState): void {
    this.#state = next;
    for (const apply of this.#subscribers) apply(change, next);
  }

  subscribe(apply: MoodDelivery): () => void {
    // A wrapper per subscription: the same function subscribed twice is two subscriptions.
    const subscriber: MoodDelivery = (change, state) => apply(change, state);
    this.#subscribers.add(subscriber);
    return () => this.#subscribers.delete(subscriber);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#subscribers.clear();
  }
}
