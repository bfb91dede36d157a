import { fromCallback, type EventObject } from 'xstate';
import type { Bus } from '../bus/bus.js';
import { foldMoodChange, type EmotionState } from '../emotions/state.js';
import type { MoodLedger } from '../mood-ledger/mood-ledger.js';
import { publishLate } from '../bus/publish-late.js';

export interface EmotionsInput {
  readonly bus: Bus;
  readonly initial: EmotionState;
  /** The only way the mood changes: whatever ledger the composition root chose. */
  readonly ledger: MoodLedger;
}

/**
 * The one owner of the mood (the emotions, the avatar's shape, the last sentiment, the time of the
 * last change). It changes it only as the mood ledger delivers changes, each folded once by
 * `foldMoodChange` into the state current at that moment (so concurrent chats compose), and
 * publishes each as one `mood.changed` carrying the change and the whole state after it: everyone
 * else reads the mood from there.
 */
export const emotionsActor = fromCallback<EventObject, EmotionsInput>(({ input: { bus, initial, ledger } }) => {
  let state = initial;
  const unsubscribe = ledger.subscribe((change) => {
    state = foldMoodChange(state, change);
    // A shared ledger may deliver after the owner closed the bus at shutdown.
    publishLate(bus, {
      type: 'mood.changed',
      change,
      emotions: state.emotions,
      avatarShape: state.avatarShape,
      sentiment: state.sentiment,
      lastUpdated: state.lastUpdated,
      at: change.at,
    });
  });
  return unsubscribe;
});
