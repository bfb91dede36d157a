import type { MoodChange, MoodLedger } from './mood-ledger.js';

/** The ledger refuses changes once closed, as a shared one does when its connection is gone. */
export class MoodLedgerClosedError extends Error {
  override readonly name = 'MoodLedgerClosedError';
  constructor() {
    super('the mood ledger is closed');
  }
}

/**
 * The in-process mood ledger: one process is the only replica, so a change is recorded by
 * delivering it, at once and in append order, to every subscriber before `append` resolves.
 */
export class LocalMoodLedger implements MoodLedger {
  private readonly subscribers = new Set<(change: MoodChange) => void>();
  private closed = false;

  async append(change: MoodChange): Promise<void> {
    if (this.closed) throw new MoodLedgerClosedError();
    for (const apply of this.subscribers) apply(change);
  }

  subscribe(apply: (change: MoodChange) => void): () => void {
    // A wrapper per subscription: the same function subscribed twice is two subscriptions.
    const subscriber = (change: MoodChange): void => apply(change);
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.subscribers.clear();
  }
}
