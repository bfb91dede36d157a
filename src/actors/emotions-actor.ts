import { fromCallback, type EventObject } from 'xstate';
import type { Bus } from '../bus/bus.js';
import type { Emotions } from '../emotions/emotions.js';
import { applyDrift, processMessage } from '../emotions/model.js';
import type { MoodLedger } from '../mood/mood-ledger.js';
import { publishLate } from './publish.js';

export interface EmotionsInput {
  readonly bus: Bus;
  readonly initial: Emotions;
  /** The only way the emotions change: whatever ledger the composition root chose. */
  readonly ledger: MoodLedger;
}

/**
 * Owns the five values, and changes them only as the mood ledger delivers changes: a chat
 * (decay, then its sentiment) or a drift tick (its deltas), applied to the state current at that
 * moment, so that concurrent chats compose. Each delivered change goes on the bus as the event a
 * replay folds (`chat.committed`, `emotions.drifted`), then `emotions.changed`, stamped with the
 * change's time. An accepted message also gets `emotions.previewed`: the state it would make.
 */
export const emotionsActor = fromCallback<EventObject, EmotionsInput>(({ input: { bus, initial, ledger } }) => {
  let emotions = initial;
  const unsubscribe = ledger.subscribe((change) => {
    // A shared ledger may deliver after the owner closed the bus at shutdown.
    if (change.kind === 'chat') {
      const { correlationId, sentiment, at } = change;
      emotions = processMessage(emotions, sentiment);
      publishLate(bus, { type: 'chat.committed', correlationId, sentiment, at });
      publishLate(bus, { type: 'emotions.changed', emotions, cause: 'chat', correlationId, at });
    } else {
      emotions = applyDrift(emotions, change.deltas);
      publishLate(bus, { type: 'emotions.drifted', deltas: change.deltas, at: change.at });
      publishLate(bus, { type: 'emotions.changed', emotions, cause: 'drift', at: change.at });
    }
  });
  const previews = bus.on('sentiment.analyzed').subscribe(({ correlationId, sentiment }) => {
    bus.publish({ type: 'emotions.previewed', correlationId, emotions: processMessage(emotions, sentiment) });
  });
  return () => {
    unsubscribe();
    previews.unsubscribe();
  };
});
