import { Subscription } from 'rxjs';
import { fromCallback, type EventObject } from 'xstate';
import type { Bus } from '../bus/bus.js';
import type { Emotions } from '../emotions/emotions.js';
import { explain, recordChange, startJournal } from '../emotions/mood-journal.js';

export interface MoodJournalInput {
  readonly bus: Bus;
  /** What the journal starts at until the memory store has loaded the state. */
  readonly emotions: Emotions;
}

/**
 * Keeps the latest changes of the shared mood as `mood.changed` carries them (the state loaded at
 * startup begins it) and answers `mood.why.requested` at once, in every phase. It holds numbers
 * only: the mood is shared, the messages are not.
 */
export const moodJournalActor = fromCallback<EventObject, MoodJournalInput>(({ input: { bus, emotions } }) => {
  let journal = startJournal(emotions);
  const subscription = new Subscription();
  subscription.add(bus.on('emotions.loaded').subscribe((loaded) => (journal = startJournal(loaded.emotions))));
  subscription.add(bus.on('mood.changed').subscribe(({ change, emotions: after }) => (journal = recordChange(journal, change, after))));
  subscription.add(
    bus
      .on('mood.why.requested')
      .subscribe(({ correlationId }) => bus.publish({ type: 'mood.why.reported', correlationId, ...explain(journal) })),
  );
  return () => subscription.unsubscribe();
});
