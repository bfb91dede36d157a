import { Subscription } from 'rxjs';
import { fromCallback, type EventObject } from 'xstate';
import type { Bus } from '../bus/bus.js';
import type { Emotions } from '../emotions/emotions.js';
import { applyDrift, processMessage } from '../emotions/model.js';

/**
 * Owns the five values. Each `sentiment.analyzed` is one processed message (decay, then the
 * sentiment), each `emotions.drifted` one drift tick; either way it publishes `emotions.changed`,
 * stamped with the cause's time so that a replay derives the same times.
 */
export const emotionsActor = fromCallback<EventObject, { bus: Bus; initial: Emotions }>(({ input: { bus, initial } }) => {
  let emotions = initial;
  const subscription = new Subscription();
  subscription.add(
    bus.on('sentiment.analyzed').subscribe(({ correlationId, sentiment, at }) => {
      emotions = processMessage(emotions, sentiment);
      bus.publish({ type: 'emotions.changed', emotions, cause: 'chat', correlationId, at });
    }),
  );
  subscription.add(
    bus.on('emotions.drifted').subscribe(({ deltas, at }) => {
      emotions = applyDrift(emotions, deltas);
      bus.publish({ type: 'emotions.changed', emotions, cause: 'drift', at });
    }),
  );
  return () => subscription.unsubscribe();
});
