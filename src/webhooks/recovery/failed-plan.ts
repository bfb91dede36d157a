import type { JournalEntry } from '../journal/entry.js';
import { deliveryKey, outcomeOf, type ReplayRecord } from './replay-record.js';

/**
 * The deliveries `hub webhooks redeliver --failed` sends again, oldest first, once each: those received
 * since `since` whose latest attempt (a delivery of that `Webhook-Id` by the Hub, or a replay of it)
 * failed. A replay that passed, or a retry of the Hub that did, closes the case; a replay that failed
 * again is the latest failure, and the next run tries once more. With no attempt after a run that
 * passed, a second run finds nothing to send.
 */
export function failedToResend(entries: readonly JournalEntry[], replays: readonly ReplayRecord[], since?: Date): JournalEntry[] {
  const cases = new Map<string, { newest: JournalEntry; first: string; latest: { at: string; status: number | null } }>();
  const later = (a: string, b: string): boolean => a >= b;
  const sinceIso = since?.toISOString();
  for (const entry of entries) {
    const key = deliveryKey(entry);
    const known = cases.get(key);
    if (known === undefined) {
      cases.set(key, { newest: entry, first: entry.receivedAt, latest: { at: entry.receivedAt, status: entry.status } });
      continue;
    }
    if (later(entry.receivedAt, known.newest.receivedAt)) known.newest = entry;
    if (entry.receivedAt < known.first) known.first = entry.receivedAt;
    // A replay recorded at the very time of a delivery came after it: only a strictly later delivery wins.
    if (entry.receivedAt > known.latest.at) known.latest = { at: entry.receivedAt, status: entry.status };
  }
  for (const replay of replays) {
    const known = cases.get(deliveryKey(replay));
    if (known !== undefined && later(replay.at, known.latest.at)) known.latest = { at: replay.at, status: replay.status };
  }
  return [...cases.values()]
    .filter((found) => (sinceIso === undefined || found.newest.receivedAt >= sinceIso) && outcomeOf(found.latest.status) === 'failed')
    .sort((a, b) => a.first.localeCompare(b.first))
    .map((found) => found.newest);
}
