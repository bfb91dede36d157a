import { Subscription } from 'rxjs';
import { fromCallback, type EventObject } from 'xstate';
import type { Bus } from '../bus/bus.js';
import type { Emotions } from '../emotions/emotions.js';
import { explain, moodTotals, recordChange, startJournal, type MoodExplanation } from '../emotions/mood-journal.js';
import { publishLate } from '../bus/publish-late.js';
import type { MoodLedger } from '../mood-ledger/mood-ledger.js';
import type { Logger } from '../runtime/logger.js';

export interface MoodJournalInput {
  readonly bus: Bus;
  /** What the journal starts at until the memory store has loaded the state. */
  readonly emotions: Emotions;
  /** A shared ledger's explanation, which replicas answer alike; the journal here stands in when it fails. */
  readonly ledger: Pick<MoodLedger, 'explain'>;
  readonly logger: Logger;
}

/**
 * Keeps the latest changes of the shared mood as `mood.changed` carries them (the state loaded at
 * startup begins it) and answers `mood.why.requested` in every phase: from a shared ledger's
 * journal when there is one (replicas), else from its own, with the totals by kind of either. It
 * holds numbers only: the mood is shared, the messages are not.
 */
export const moodJournalActor = fromCallback<EventObject, MoodJournalInput>(({ input: { bus, emotions, ledger, logger } }) => {
  let journal = startJournal(emotions);
  const report = (correlationId: string, explanation: MoodExplanation) =>
    ({ type: 'mood.why.reported', correlationId, ...explanation, totals: moodTotals(explanation.changes) }) as const;
  const subscription = new Subscription();
  subscription.add(bus.on('emotions.loaded').subscribe((loaded) => (journal = startJournal(loaded.emotions))));
  subscription.add(bus.on('mood.changed').subscribe(({ change, emotions: after }) => (journal = recordChange(journal, change, after))));
  subscription.add(
    bus.on('mood.why.requested').subscribe(({ correlationId }) => {
      if (ledger.explain === undefined) {
        bus.publish(report(correlationId, explain(journal)));
        return;
      }
      ledger.explain().then(
        (explanation) => publishLate(bus, report(correlationId, explanation)),
        (error: unknown) => {
          const reason = (error as Error).message;
          logger.warn({ reason }, `the shared mood journal cannot be read, so this replica answers from its own: ${reason}`);
          publishLate(bus, report(correlationId, explain(journal)));
        },
      );
    }),
  );
  return () => subscription.unsubscribe();
});
