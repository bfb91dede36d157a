import type { Bus } from '../bus/bus.js';
import { defaultState } from '../emotions/state.js';
import { phaseRejection } from '../bus/phase-rejection.js';

/**
 * Answers the HTTP layer from the moment the server listens until the actor system (whose front
 * desk then takes over) is loaded: status `initializing`, chats rejected as initializing. Returns
 * the function that closes it.
 */
export function openLoadingDesk(bus: Bus, now: () => Date): () => void {
  const state = defaultState(now().toISOString());
  const subscriptions = [
    bus.on('status.requested').subscribe(({ correlationId }) => {
      bus.publish({ type: 'status.reported', correlationId, phase: 'initializing', ...state });
    }),
    bus.on('chat.requested').subscribe(({ correlationId }) => {
      bus.publish({ type: 'chat.rejected', correlationId, ...phaseRejection('initializing') });
    }),
  ];
  return () => {
    for (const subscription of subscriptions) subscription.unsubscribe();
  };
}
