import { fromCallback, type EventObject } from 'xstate';
import type { Bus } from '../bus/bus.js';
import { analyzeSentiment } from '../emotions/sentiment.js';

/** Scores each accepted chat message: `chat.accepted` → `sentiment.analyzed` (same correlation id). */
export const sentimentActor = fromCallback<EventObject, { bus: Bus }>(({ input: { bus } }) => {
  const subscription = bus.on('chat.accepted').subscribe(({ correlationId, message }) => {
    bus.publish({ type: 'sentiment.analyzed', correlationId, ...analyzeSentiment(message) });
  });
  return () => subscription.unsubscribe();
});
