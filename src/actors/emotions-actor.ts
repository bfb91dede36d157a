import { fromCallback, type EventObject } from 'xstate';
import type { Bus } from '../bus/bus.js';
import { processMessage } from '../emotions/model.js';
import { analyzeSentiment } from '../emotions/sentiment.js';
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
 * else reads the mood from there. An accepted message is scored here too, and `sentiment.analyzed`
 * carries the emotions it would make (the preview the dialogue's prompt shows), which changes nothing.
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
  const scores = bus.on('chat.accepted').subscribe(({ correlationId, message, redo }) => {
    // A regenerate's message was scored when it was first sent: it moves nothing again.
    if (redo === 'regenerate') return;
    const analysis = analyzeSentiment(message);
    bus.publish({ type: 'sentiment.analyzed', correlationId, ...analysis, preview: processMessage(state.emotions, analysis.sentiment) });
  });
  return () => {
    unsubscribe();
    scores.unsubscribe();
  };
});
