import { Subscription } from 'rxjs';
import { fromCallback, type EventObject } from 'xstate';
import type { Bus } from '../bus/bus.js';
import type { ModelFailurePolicy } from '../config/chat-config.js';
import type { Appraisal, Sentiment } from '../emotions/emotions.js';
import type { MoodLedger } from '../mood-ledger/mood-ledger.js';
import { isoStamps, type Clock } from '../runtime/clock.js';

export interface ChatInput {
  readonly bus: Bus;
  /** Where a replied chat commits its change; the actor does not know which ledger it is. */
  readonly ledger: MoodLedger;
  readonly clock: Clock;
  /** Only words the rejection: whether the service goes on after a model failure. */
  readonly onModelFailure: ModelFailurePolicy;
}

/** One accepted chat on its way: what is known of it so far. */
interface Pending {
  readonly session: string;
  readonly message: string;
  /** When the message was accepted: its time in the visitor's history. */
  readonly at: string;
  /** What the sentiment actor read: both come with `sentiment.analyzed`. */
  reading?: { readonly sentiment: Sentiment; readonly appraisal: Appraisal };
  /** Set once the dialogue replied: from then on the chat waits for its own change to come back from the ledger. */
  response?: string;
}

const FAILURE_MESSAGES: Record<ModelFailurePolicy, { failed: string; timedOut: string }> = {
  exit: {
    failed: 'The language model failed to produce a reply; the service is shutting down.',
    timedOut: 'The language model took too long to reply; the service is shutting down.',
  },
  stay: {
    failed: 'The language model failed to produce a reply; nothing changed. Please try again.',
    timedOut: 'The language model took too long to reply; nothing changed. Please try again.',
  },
};

/**
 * The main chat object: follows each accepted request through the actors and answers it. When the
 * dialogue has replied, it appends the chat's change (decay, then the message's appraisal) to the
 * mood ledger, and answers `chat.replied` only once the ledger has delivered that very change, with
 * the emotions and shape right after it. A chat the ledger refuses, whose model call fails, or that
 * is still waiting for the model when the system fails, is `chat.rejected` and changes nothing.
 */
export const chatActor = fromCallback<EventObject, ChatInput>(({ input: { bus, ledger, clock, onModelFailure } }) => {
  const pending = new Map<string, Pending>();
  const stamp = isoStamps(clock);
  const subscription = new Subscription();
  const reject = (
    correlationId: string,
    reason: 'provider_failed' | 'provider_timeout' | 'unavailable' | 'stopped',
    error: string,
  ): void => {
    if (pending.delete(correlationId)) bus.publish({ type: 'chat.rejected', correlationId, reason, error });
  };

  subscription.add(
    bus.on('chat.accepted').subscribe(({ correlationId, session, message, at }) => pending.set(correlationId, { session, message, at })),
  );
  subscription.add(
    bus.on('sentiment.analyzed').subscribe(({ correlationId, sentiment, appraisal }) => {
      const chat = pending.get(correlationId);
      if (chat) chat.reading = { sentiment, appraisal };
    }),
  );
  subscription.add(
    bus.on('dialogue.replied').subscribe(({ correlationId, response }) => {
      const chat = pending.get(correlationId);
      if (!chat?.reading) return;
      chat.response = response;
      // The scores only: the mood is shared, the message's words (the cues) stay with its visitor.
      const { emotions, neutral, strongest } = chat.reading.appraisal;
      const change = {
        kind: 'chat',
        correlationId,
        sentiment: chat.reading.sentiment,
        appraisal: { emotions, neutral, strongest },
        at: stamp(),
      } as const;
      const times = { message: chat.at, reply: change.at };
      ledger.append(change, { session: chat.session, message: chat.message, reply: response, times }).catch((error: unknown) => {
        const cause = error instanceof Error ? error.message : String(error);
        reject(correlationId, 'unavailable', `The mood could not be recorded (${cause}); nothing changed. Please try again.`);
      });
    }),
  );
  // The chat's own change is back from the ledger: the reply carries the mood right after it.
  subscription.add(
    bus.on('mood.changed').subscribe(({ change, emotions, avatarShape }) => {
      if (change.kind !== 'chat') return;
      const { correlationId } = change;
      const chat = pending.get(correlationId);
      if (chat?.response === undefined || chat.reading === undefined) return;
      pending.delete(correlationId);
      bus.publish({
        type: 'chat.replied',
        correlationId,
        response: chat.response,
        emotions,
        avatarShape,
        appraisal: chat.reading.appraisal,
      });
    }),
  );
  subscription.add(
    bus.on('dialogue.failed').subscribe(({ correlationId, timedOut }) => {
      const messages = FAILURE_MESSAGES[onModelFailure];
      reject(correlationId, timedOut ? 'provider_timeout' : 'provider_failed', timedOut ? messages.timedOut : messages.failed);
    }),
  );
  subscription.add(
    bus
      .on('dialogue.unavailable')
      .subscribe(({ correlationId, reason }) =>
        reject(correlationId, 'unavailable', `The conversation could not be read (${reason}); nothing changed. Please try again.`),
      ),
  );
  subscription.add(
    bus
      .on('dialogue.stopped')
      .subscribe(({ correlationId }) => reject(correlationId, 'stopped', 'The reply was stopped; nothing changed.')),
  );
  // The system is going down: every chat still waiting for the model gets its answer before the exit.
  subscription.add(
    bus.on('system.phase.changed').subscribe(({ phase }) => {
      if (phase !== 'failed') return;
      for (const [correlationId, chat] of pending) {
        if (chat.response === undefined) reject(correlationId, 'provider_failed', FAILURE_MESSAGES.exit.failed);
      }
    }),
  );
  return () => subscription.unsubscribe();
});
