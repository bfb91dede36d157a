import { Subscription } from 'rxjs';
import { fromCallback, type EventObject } from 'xstate';
import type { Bus } from '../bus/bus.js';
import type { ProviderConfig } from '../config/chat-config.js';
import { EMOTION_NAMES, type Emotions } from '../emotions/emotions.js';
import { roundEmotions } from '../emotions/model.js';
import { createProviderClient, describeProviderError, isProviderTimeout } from '../providers/openai-client.js';
import type { SessionKey } from '../bus/events.js';
import type { ConversationStore, ConversationTurn } from '../sessions/conversation-store.js';
import { publishLate } from './publish.js';

export interface DialogueInput {
  readonly bus: Bus;
  readonly provider: ProviderConfig;
  readonly timeoutMs: number;
  /** The client's retries before a failure counts. */
  readonly maxRetries: number;
  /** Each visitor's conversation; the actor does not know which store it is. */
  readonly conversations: ConversationStore;
  readonly fetch?: typeof fetch;
}

/** The system prompt: who the model speaks as, and how it feels right now. */
export function systemPrompt(emotions: Emotions): string {
  const rounded = roundEmotions(emotions);
  const feelings = EMOTION_NAMES.map((name) => `${name} ${rounded[name].toFixed(2)}`).join(', ');
  return [
    'You are the voice of a small avatar with feelings, chatting with one person.',
    `Your current emotions, each from 0 (none) to 1 (intense): ${feelings}.`,
    'Let them colour your tone and word choice without naming the numbers.',
    'Answer in plain text, briefly and kindly.',
  ].join(' ');
}

/** The model's answer gives nothing to say (empty, or not a completion): docs/specification.md#states counts that as a failure to produce a reply. */
class UnusableReplyError extends Error {
  override readonly name = 'UnusableReplyError';
}

/** An accepted message, known by its correlation id until its exchange is remembered or dropped. */
interface Exchange {
  readonly session: SessionKey;
  readonly message: string;
  response?: string;
}

/**
 * The dialogue engine: once an accepted message is scored (with the emotions it would make), asks the conversational
 * provider for a reply, with those emotions in the system prompt and that visitor's conversation
 * only. Publishes `dialogue.replied`, or `dialogue.failed` with the cause after the client's
 * retries. The exchange joins the visitor's conversation only when the chat is committed.
 */
export const dialogueActor = fromCallback<EventObject, DialogueInput>(({ input }) => {
  const { bus, provider, conversations } = input;
  const client = createProviderClient(provider, {
    timeoutMs: input.timeoutMs,
    maxRetries: input.maxRetries,
    fetch: input.fetch,
  });
  // Calls in flight, aborted on stop; a controller per call, since the openai client never removes the listener it adds to a signal.
  const inFlight = new Set<AbortController>();
  const exchanges = new Map<string, Exchange>();

  async function reply(correlationId: string, exchange: Exchange, emotions: Emotions): Promise<void> {
    let history: readonly ConversationTurn[];
    try {
      history = await conversations.history(exchange.session);
    } catch (error) {
      exchanges.delete(correlationId);
      publishLate(bus, { type: 'dialogue.unavailable', correlationId, reason: (error as Error).message });
      return;
    }
    const call = new AbortController();
    inFlight.add(call);
    try {
      const completion = await client.chat.completions.create(
        {
          model: provider.model,
          messages: [{ role: 'system', content: systemPrompt(emotions) }, ...history, { role: 'user', content: exchange.message }],
        },
        { signal: call.signal },
      );
      // A provider that answers 200 with something else than a completion must be named as such, not as a TypeError.
      if (!Array.isArray((completion as { choices?: unknown }).choices)) {
        throw new UnusableReplyError(`model ${provider.model} returned a malformed reply: no "choices" list`);
      }
      const response = completion.choices[0]?.message?.content?.trim() ?? '';
      if (response === '') throw new UnusableReplyError(`model ${provider.model} returned an empty reply`);
      exchange.response = response;
      if (!call.signal.aborted) publishLate(bus, { type: 'dialogue.replied', correlationId, response });
    } catch (error) {
      exchanges.delete(correlationId);
      const reason = error instanceof UnusableReplyError ? error.message : `model ${provider.model}: ${describeProviderError(error)}`;
      if (!call.signal.aborted) publishLate(bus, { type: 'dialogue.failed', correlationId, reason, timedOut: isProviderTimeout(error) });
    } finally {
      inFlight.delete(call);
    }
  }

  const subscription = new Subscription();
  subscription.add(
    bus.on('chat.accepted').subscribe(({ correlationId, message, session }) => exchanges.set(correlationId, { session, message })),
  );
  subscription.add(
    bus.on('sentiment.analyzed').subscribe(({ correlationId, preview }) => {
      const exchange = exchanges.get(correlationId);
      if (exchange) void reply(correlationId, exchange, preview);
    }),
  );
  subscription.add(
    bus.on('mood.changed').subscribe(({ change }) => {
      if (change.kind !== 'chat') return;
      const { correlationId } = change;
      const exchange = exchanges.get(correlationId);
      if (exchange?.response === undefined) return;
      exchanges.delete(correlationId);
      // A store that cannot write loses this exchange from the visitor's memory; the reply still goes out.
      conversations.remember(exchange.session, exchange.message, exchange.response).catch(() => undefined);
    }),
  );
  subscription.add(bus.on('chat.rejected').subscribe(({ correlationId }) => exchanges.delete(correlationId)));
  return () => {
    for (const call of inFlight) call.abort();
    inFlight.clear();
    subscription.unsubscribe();
  };
});

/** Tells the system machine that the dialogue failed, which ends the process (docs/specification.md#states) unless `ON_MODEL_FAILURE=stay`. */
export const dialogueWatch = fromCallback<EventObject, { bus: Bus }>(({ input: { bus }, sendBack }) => {
  const subscription = bus.on('dialogue.failed').subscribe(({ reason }) => sendBack({ type: 'PROVIDER_FAILED', reason }));
  return () => subscription.unsubscribe();
});
