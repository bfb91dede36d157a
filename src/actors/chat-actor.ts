import { Subscription } from 'rxjs';
import { fromCallback, type EventObject } from 'xstate';
import type { Bus } from '../bus/bus.js';
import type { ModelFailurePolicy } from '../config/chat-config.js';
import type { Appraisal, Sentiment } from '../emotions/emotions.js';
import type { MoodLedger } from '../mood-ledger/mood-ledger.js';
import { isoStamps, type Clock } from '../runtime/clock.js';
import type { EmotionState } from '../emotions/state.js';
import type { ExchangeMarks } from '../conversations/conversation-store.js';

export interface ChatInput {
  readonly bus: Bus;
  /** Where a replied chat commits its change; the actor does not know which ledger it is. */
  readonly ledger: MoodLedger;
  readonly clock: Clock;
  /** Only words the rejection: whether the service goes on after a model failure. */
  readonly onModelFailure: ModelFailurePolicy;
  /** The mood the run starts from: what a regenerate's reply carries until a change comes. */
  readonly initial: Pick<EmotionState, 'emotions' | 'avatarShape'>;
}

/** One accepted chat on its way: what is known of it so far. */
interface Pending {
  /** A regenerate: nothing commits to the mood, the reply carries the mood as it is. */
  readonly regenerate: boolean;
  /** How a ledger that keeps the conversations commits the exchange: its turn, an edit's in place of the last. */
  readonly marks: ExchangeMarks;
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
 * the emotions and shape right after it. A regenerate appends nothing: its reply carries the mood as
 * it is. A chat the ledger refuses or whose model call fails is `chat.rejected` and changes nothing.
 * When the system fails, it lets the chats in flight end (`chat.drain.requested`), each with its
 * own answer, and refuses those still going at the drain's deadline.
 */
export const chatActor = fromCallback<EventObject, ChatInput>(({ input: { bus, ledger, clock, onModelFailure, initial } }) => {
  const pending = new Map<string, Pending>();
  const stamp = isoStamps(clock);
  const subscription = new Subscription();
  let mood = { emotions: initial.emotions, avatarShape: initial.avatarShape };
  let drain: { readonly correlationId: string; readonly timer: NodeJS.Timeout; ended: number } | undefined;
  /** Ends the drain once no chat is left in flight; `cut` counts those refused at its deadline. */
  const settleDrain = (cut = 0): void => {
    if (drain === undefined || pending.size > 0) return;
    clearTimeout(drain.timer);
    bus.publish({ type: 'chat.drained', correlationId: drain.correlationId, ended: drain.ended, cut });
    drain = undefined;
  };
  const answered = (correlationId: string): boolean => {
    if (!pending.delete(correlationId)) return false;
    if (drain) drain.ended += 1;
    return true;
  };
  const reject = (
    correlationId: string,
    reason: 'provider_failed' | 'provider_timeout' | 'unavailable' | 'stopped' | 'nothing_to_redo',
    error: string,
  ): void => {
    if (answered(correlationId)) bus.publish({ type: 'chat.rejected', correlationId, reason, error });
    settleDrain();
  };
  /** Answers with the mood as it is now; with how the message read, unless it was not read again (a regenerate). */
  const reply = (correlationId: string, response: string, appraisal?: Appraisal): void => {
    if (answered(correlationId))
      bus.publish({ type: 'chat.replied', correlationId, response, ...mood, ...(appraisal ? { appraisal } : {}) });
    settleDrain();
  };

  subscription.add(
    bus.on('chat.accepted').subscribe(({ correlationId, session, message, at, redo, turn }) =>
      pending.set(correlationId, {
        session,
        message,
        at,
        regenerate: redo === 'regenerate',
        marks: { ...(turn === undefined ? {} : { turn }), replace: redo === 'edit' },
      }),
    ),
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
      // The message was read when it was first sent: a new reply to it moves nothing, decay included.
      if (chat?.regenerate) return reply(correlationId, response);
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
      ledger
        .append(change, {
          session: chat.session,
          message: chat.message,
          reply: response,
          times,
          ...chat.marks,
          appraisal: chat.reading.appraisal,
        })
        .catch((error: unknown) => {
          const cause = error instanceof Error ? error.message : String(error);
          reject(correlationId, 'unavailable', `The mood could not be recorded (${cause}); nothing changed. Please try again.`);
        });
    }),
  );
  // The chat's own change is back from the ledger: the reply carries the mood right after it.
  subscription.add(
    bus.on('mood.changed').subscribe(({ change, emotions, avatarShape }) => {
      mood = { emotions, avatarShape };
      if (change.kind !== 'chat') return;
      const { correlationId } = change;
      const chat = pending.get(correlationId);
      if (chat?.response !== undefined) reply(correlationId, chat.response, chat.reading?.appraisal);
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
  subscription.add(
    bus
      .on('dialogue.nothing.to.redo')
      .subscribe(({ correlationId }) => reject(correlationId, 'nothing_to_redo', 'There is no last message to regenerate or edit.')),
  );
  // The system is going down: the chats in flight run to their end (a healthy reply is never cut by
  // another visitor's failure), and those still going at the deadline get their answer before the exit.
  subscription.add(
    bus.on('chat.drain.requested').subscribe(({ correlationId, withinMs }) => {
      const timer = setTimeout(() => {
        const cut = pending.size;
        for (const id of [...pending.keys()]) {
          pending.delete(id);
          bus.publish({ type: 'chat.rejected', correlationId: id, reason: 'system_failed', error: FAILURE_MESSAGES.exit.failed });
        }
        settleDrain(cut);
      }, withinMs);
      drain = { correlationId, timer, ended: 0 };
      settleDrain();
    }),
  );
  return () => {
    if (drain) clearTimeout(drain.timer);
    subscription.unsubscribe();
  };
});
