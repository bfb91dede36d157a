import { Subscription } from 'rxjs';
import { fromCallback, type EventObject } from 'xstate';
import type { Bus } from '../bus/bus.js';
import type { AvatarShape, Emotions } from '../emotions/emotions.js';

export interface ChatOutcome {
  emotions: Emotions;
  avatarShape: AvatarShape;
}

/**
 * The main chat object: follows each accepted request through the actors and answers it,
 * `chat.replied` with the emotions and shape its own message produced, or `chat.rejected`
 * (`provider_failed`) when the dialogue could not produce a reply.
 */
export const chatActor = fromCallback<EventObject, { bus: Bus; initial: ChatOutcome }>(({ input: { bus, initial } }) => {
  const latest: ChatOutcome = { ...initial };
  const pending = new Map<string, ChatOutcome>();
  const subscription = new Subscription();
  subscription.add(bus.on('chat.accepted').subscribe(({ correlationId }) => pending.set(correlationId, { ...latest })));
  subscription.add(
    bus.on('emotions.changed').subscribe(({ emotions, correlationId }) => {
      latest.emotions = emotions;
      const outcome = correlationId === undefined ? undefined : pending.get(correlationId);
      if (outcome) outcome.emotions = emotions;
    }),
  );
  subscription.add(
    bus.on('avatar.changed').subscribe(({ avatarShape, correlationId }) => {
      latest.avatarShape = avatarShape;
      const outcome = correlationId === undefined ? undefined : pending.get(correlationId);
      if (outcome) outcome.avatarShape = avatarShape;
    }),
  );
  subscription.add(
    bus.on('dialogue.replied').subscribe(({ correlationId, response }) => {
      const outcome = pending.get(correlationId);
      if (!outcome) return;
      pending.delete(correlationId);
      bus.publish({ type: 'chat.replied', correlationId, response, ...outcome });
    }),
  );
  subscription.add(
    bus.on('dialogue.failed').subscribe(({ correlationId }) => {
      if (!pending.delete(correlationId)) return;
      bus.publish({
        type: 'chat.rejected',
        correlationId,
        reason: 'provider_failed',
        error: 'The language model failed to produce a reply; the service is shutting down.',
      });
    }),
  );
  return () => subscription.unsubscribe();
});
