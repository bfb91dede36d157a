import type { JournalEntry } from '../journal/entry.js';

/** How a delivery's answer reads: taken (2xx), refused as sent (4xx), or failed (5xx, no answer, anything else). */
export type DeliveryOutcome = 'delivered' | 'refused' | 'failed';

/** A replay against the delivery it re-sent: did the receiver's answer go from failing to passing, or back? */
export type Verdict = 'fixed' | 'regressed' | 'still failing' | 'still passing';

/** One re-sent delivery, as the replay log keeps it. */
export interface ReplayRecord {
  /** The delivery it re-sent: its `Webhook-Id` and the time it was received (together, its key). */
  readonly webhookId: string | null;
  readonly receivedAt: string;
  /** When it was re-sent (ISO). */
  readonly at: string;
  /** Where, without the query. */
  readonly to: string;
  /** The answer's status; `null` when nothing answered. */
  readonly status: number | null;
  readonly ms: number;
  /** The answer's body, its first 2,048 characters, or why nothing answered. */
  readonly answer?: string;
  readonly verdict: Verdict;
  /** Who re-sent it. */
  readonly by: 'redeliver' | 'inspect';
}

export function outcomeOf(status: number | null): DeliveryOutcome {
  if (status !== null && status >= 200 && status < 300) return 'delivered';
  if (status !== null && status >= 400 && status < 500) return 'refused';
  return 'failed';
}

const passing = (status: number | null): boolean => outcomeOf(status) === 'delivered';

/** The verdict of a replay answered `replayed` against the delivery's own answer `original`. */
export function verdictOf(original: number, replayed: number | null): Verdict {
  if (passing(original)) return passing(replayed) ? 'still passing' : 'regressed';
  return passing(replayed) ? 'fixed' : 'still failing';
}

/**
 * A delivery's identity across the journal and the replay log: the Hub sends one `Webhook-Id` per
 * delivery (its retries keep it); a delivery without one is known by the time it came.
 */
export function deliveryKey(delivery: Pick<JournalEntry, 'webhookId' | 'receivedAt'>): string {
  return delivery.webhookId ?? `@${delivery.receivedAt}`;
}

/** A replay belongs to the journal entry it re-sent: the same delivery key and the same time received. */
export function replayKey(delivery: Pick<JournalEntry, 'webhookId' | 'receivedAt'>): string {
  return `${deliveryKey(delivery)} ${delivery.receivedAt}`;
}
