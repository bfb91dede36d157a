import { Subscription } from 'rxjs';
import { fromCallback, type EventObject } from 'xstate';
import type { Bus } from '../bus/bus.js';
import type { ProviderConfig } from '../config/chat-config.js';
import { EMOTION_NAMES, type Emotions } from '../emotions/emotions.js';
import { roundEmotions } from '../emotions/model.js';
import { CallSignals } from '../providers/call-signals.js';
import { createProviderClient, describeProviderError, isProviderTimeout } from '../providers/openai-client.js';
import type { SessionKey } from '../bus/events.js';
import type { ConversationStore, ConversationTurn } from '../sessions/conversation-store.js';
import type { ChatCompletionMessageParam as ChatMessage } from 'openai/resources/chat/completions';
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

/** The model's answer gives nothing to say (empty, or not a completion): seed 000 counts that as a failure to produce a reply. */
class UnusableReplyError extends Error {
  override readonly name = 'UnusableReplyError';
}

/** An accepted message, known by its correlation id until its exchange is remembered or dropped. */
interface Exchange {
  readonly session: SessionKey;
  readonly message: string;
  /** When the message was accepted: its time in the visitor's history. */
  readonly at: string;
  /** A streamed chat's own abort: the visitor may stop it alone (`chat.stop.requested`). */
  readonly stream?: AbortController;
  response?: string;
}

/** The provider sent no piece of a streamed reply for this long: the call counts as timed out. */
class StreamIdleError extends Error {
  override readonly name = 'StreamIdleError';
}

/**
 * The dialogue engine: once an accepted message is scored (with the emotions it would make), asks the conversational
 * provider for a reply, with those emotions in the system prompt and that visitor's conversation
 * only. Publishes `dialogue.replied`, or `dialogue.failed` with the cause after the client's
 * retries. A streamed chat's reply comes piece by piece, each published as `chat.token`, and is
 * replied only once the provider's stream has ended normally; the visitor can stop it
 * (`dialogue.stopped`, no failure). The exchange joins the visitor's conversation only when the
 * chat is committed.
 */
export const dialogueActor = fromCallback<EventObject, DialogueInput>(({ input }) => {
  const { bus, provider, conversations, timeoutMs } = input;
  const client = createProviderClient(provider, {
    timeoutMs,
    maxRetries: input.maxRetries,
    fetch: input.fetch,
  });
  // JSON calls in flight are aborted together on stop; a streamed call has its own controller, in `exchanges`.
  const signals = new CallSignals();
  const exchanges = new Map<string, Exchange>();

  /** A JSON chat's reply: one completion. */
  async function completed(messages: readonly ChatMessage[], signal: AbortSignal): Promise<string> {
    const completion = await client.chat.completions.create({ model: provider.model, messages: [...messages] }, { signal });
    // A provider that answers 200 with something else than a completion must be named as such, not as a TypeError.
    if (!Array.isArray((completion as { choices?: unknown }).choices)) {
      throw new UnusableReplyError(`model ${provider.model} returned a malformed reply: no "choices" list`);
    }
    return completion.choices[0]?.message?.content ?? '';
  }

  /**
   * A streamed chat's reply: each piece goes on the bus as it comes. The client's timeout covers the
   * wait for the stream to open; a stream that then goes silent for as long is aborted as timed out.
   */
  async function streamed(correlationId: string, messages: readonly ChatMessage[], controller: AbortController): Promise<string> {
    const stream = await client.chat.completions.create(
      { model: provider.model, messages: [...messages], stream: true },
      { signal: controller.signal },
    );
    let idle = false;
    const timer = setTimeout(() => {
      idle = true;
      controller.abort();
    }, timeoutMs);
    let text = '';
    try {
      for await (const chunk of stream) {
        timer.refresh();
        const piece = chunk.choices?.[0]?.delta?.content;
        if (typeof piece !== 'string' || piece === '') continue;
        text += piece;
        publishLate(bus, { type: 'chat.token', correlationId, text: piece });
      }
    } catch (error) {
      if (!idle) throw error;
    } finally {
      clearTimeout(timer);
    }
    // An aborted stream may end as if normally: the idle flag, not the loop's end, says what happened.
    if (idle) throw new StreamIdleError(`model ${provider.model}: the stream sent nothing for ${timeoutMs} ms`);
    return text;
  }

  async function reply(correlationId: string, exchange: Exchange, emotions: Emotions): Promise<void> {
    let history: readonly ConversationTurn[];
    try {
      history = await conversations.history(exchange.session);
    } catch (error) {
      exchanges.delete(correlationId);
      publishLate(bus, { type: 'dialogue.unavailable', correlationId, reason: (error as Error).message });
      return;
    }
    // Stopped (or the actor stopped) while the history was read: the model is not asked.
    if (exchange.stream?.signal.aborted) return;
    const messages: ChatMessage[] = [
      { role: 'system', content: systemPrompt(emotions) },
      ...history,
      { role: 'user', content: exchange.message },
    ];
    const call = exchange.stream ?? signals.acquire();
    try {
      const text = exchange.stream ? await streamed(correlationId, messages, exchange.stream) : await completed(messages, call.signal);
      const response = text.trim();
      if (response === '') throw new UnusableReplyError(`model ${provider.model} returned an empty reply`);
      exchange.response = response;
      if (!call.signal.aborted) publishLate(bus, { type: 'dialogue.replied', correlationId, response });
    } catch (error) {
      // A stopped call was answered by the stop itself; a call aborted by the actor's stop has nobody to tell.
      if (call.signal.aborted && !(error instanceof StreamIdleError)) return;
      exchanges.delete(correlationId);
      const reason =
        error instanceof UnusableReplyError || error instanceof StreamIdleError
          ? error.message
          : `model ${provider.model}: ${describeProviderError(error)}`;
      const timedOut = error instanceof StreamIdleError || isProviderTimeout(error);
      publishLate(bus, { type: 'dialogue.failed', correlationId, reason, timedOut });
    } finally {
      if (!exchange.stream) signals.release(call);
    }
  }

  /** Stops the session's streamed replies that the model is still writing; returns how many. */
  function stop(session: SessionKey): number {
    let stopped = 0;
    for (const [correlationId, exchange] of exchanges) {
      if (exchange.session !== session || exchange.stream === undefined || exchange.response !== undefined) continue;
      exchanges.delete(correlationId);
      exchange.stream.abort();
      stopped += 1;
      bus.publish({ type: 'dialogue.stopped', correlationId });
    }
    return stopped;
  }

  const subscription = new Subscription();
  subscription.add(
    bus
      .on('chat.accepted')
      .subscribe(({ correlationId, message, session, stream, at }) =>
        exchanges.set(correlationId, { session, message, at, ...(stream ? { stream: new AbortController() } : {}) }),
      ),
  );
  subscription.add(
    bus.on('sentiment.analyzed').subscribe(({ correlationId, preview }) => {
      const exchange = exchanges.get(correlationId);
      if (exchange) void reply(correlationId, exchange, preview);
    }),
  );
  subscription.add(
    bus.on('mood.changed').subscribe(({ change, at }) => {
      if (change.kind !== 'chat') return;
      const { correlationId } = change;
      const exchange = exchanges.get(correlationId);
      if (exchange?.response === undefined) return;
      exchanges.delete(correlationId);
      // A store that cannot write loses this exchange from the visitor's memory; the reply still goes out.
      conversations
        .remember(exchange.session, exchange.message, exchange.response, { message: exchange.at, reply: at })
        .catch(() => undefined);
    }),
  );
  subscription.add(bus.on('chat.rejected').subscribe(({ correlationId }) => exchanges.delete(correlationId)));
  subscription.add(
    bus.on('chat.stop.requested').subscribe(({ correlationId, session }) => {
      bus.publish({ type: 'chat.stop.answered', correlationId, stopped: stop(session) });
    }),
  );
  return () => {
    signals.abortAll();
    for (const exchange of exchanges.values()) exchange.stream?.abort();
    subscription.unsubscribe();
  };
});

/** Tells the system machine that the dialogue failed, which ends the process (seed 000) unless `ON_MODEL_FAILURE=stay`. */
export const dialogueWatch = fromCallback<EventObject, { bus: Bus }>(({ input: { bus }, sendBack }) => {
  const subscription = bus.on('dialogue.failed').subscribe(({ reason }) => sendBack({ type: 'PROVIDER_FAILED', reason }));
  return () => subscription.unsubscribe();
});
