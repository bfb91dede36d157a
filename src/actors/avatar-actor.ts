import { Subscription } from 'rxjs';
import { fromCallback, type EventObject } from 'xstate';
import type { Bus } from '../bus/bus.js';
import { advanceAvatar, type EmotionState } from '../emotions/state.js';

/**
 * The avatar engine: remembers the last committed message's sentiment and, on every
 * `emotions.changed`, applies the shape rule (with the previous shape, for hysteresis) and
 * publishes `avatar.changed`.
 */
export const avatarActor = fromCallback<EventObject, { bus: Bus; initial: EmotionState }>(({ input: { bus, initial } }) => {
  let state = initial;
  const subscription = new Subscription();
  subscription.add(bus.on('chat.committed').subscribe(({ sentiment }) => (state = { ...state, sentiment })));
  subscription.add(
    bus.on('emotions.changed').subscribe(({ emotions, at, correlationId }) => {
      state = advanceAvatar(state, emotions, at);
      bus.publish({
        type: 'avatar.changed',
        avatarShape: state.avatarShape,
        sentiment: state.sentiment,
        lastUpdated: state.lastUpdated,
        ...(correlationId === undefined ? {} : { correlationId }),
      });
    }),
  );
  return () => subscription.unsubscribe();
});
