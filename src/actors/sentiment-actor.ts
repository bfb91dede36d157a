import { fromCallback, type EventObject } from 'xstate';
import type { Bus } from '../bus/bus.js';
import { appraise, type AppraisalModel } from '../appraisal/appraisal.js';
import type { Emotions } from '../emotions/emotions.js';
import { processMessage } from '../emotions/model.js';
import { analyzeSentiment } from '../emotions/sentiment.js';

export interface SentimentInput {
  readonly bus: Bus;
  /** The mood when the actor starts; it follows `mood.changed` from there, for the preview. */
  readonly emotions: Emotions;
  /** The appraisal's weights, loaded and probed at startup (stage 1). */
  readonly model: AppraisalModel;
}

/**
 * Reads every accepted message: its AFINN sentiment (the seed's `sentiment`, which
 * `GET /api/avatar` reports) and its appraisal (which of the five emotions it expresses, which
 * moves the mood), and publishes both as `sentiment.analyzed` with the preview the dialogue's
 * prompt shows. It changes nothing: the chat carries the appraisal to the mood ledger once the
 * reply is there. The mood it previews from is the one `mood.changed` last carried. A regenerate is
 * not read again: its message moved the mood when it was first sent.
 */
export const sentimentActor = fromCallback<EventObject, SentimentInput>(({ input: { bus, emotions: initial, model } }) => {
  let emotions = initial;
  const follows = bus.on('mood.changed').subscribe((changed) => {
    emotions = changed.emotions;
  });
  const reads = bus.on('chat.accepted').subscribe(({ correlationId, message, redo }) => {
    // A regenerate's message was read when it was first sent: it moves nothing again.
    if (redo === 'regenerate') return;
    const { sentiment, score } = analyzeSentiment(message);
    const appraisal = appraise(model, message);
    bus.publish({ type: 'sentiment.analyzed', correlationId, sentiment, score, appraisal, preview: processMessage(emotions, appraisal) });
  });
  return () => {
    follows.unsubscribe();
    reads.unsubscribe();
  };
});
