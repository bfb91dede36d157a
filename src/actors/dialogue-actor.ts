import { Subscription } from 'rxjs';
import { fromCallback, type EventObject } from 'xstate';
import type { Bus } from '../bus/bus.js';
import type { ProviderConfig } from '../config/chat-config.js';
import { EMOTION_NAMES, type Appraisal, type Emotions } from '../emotions/emotions.js';
import { roundEmotions } from '../emotions/model.js';
import { withinDeadline } from '../providers/deadline.js';
import { createProviderClient, describeProviderError, isProviderTimeout } from '../providers/openai-client.js';
import type { SessionKey } from '../bus/events.js';
import { lastExchange, untimed, type ConversationStore, type ConversationTurn } from '../conversations/conversation-store.js';
import { isoStamps, type Clock } from '../runtime/clock.js';
import type { ChatCompletionMessageParam as ChatMessage } from 'openai/resources/chat/completions';
import { publishLate } from '../bus/publish-late.js';

export interface DialogueInput {
  readonly bus: Bus;
  readonly provider: ProviderConfig;
  /** The whole chat's time with the model, retries included. */
  readonly timeoutMs: number;
  /** Retries before a failure counts, each made only while time is left. */
  readonly maxRetries: number;
  /** Each visitor's conversation; the actor does not know which store it is. */
  readonly conversations: ConversationStore;
  /** Whether the dialogue remembers committed exchanges; not when the ledger commits them with the change (`keepsConversations`). */
  readonly remembers: boolean;
  /** The mood the run starts from: a regenerate's prompt shows the mood as it is, no message having moved it. */
  readonly initial: Emotions;
  /** The time of a stopped or regenerated reply in the history. */
  readonly clock: Clock;
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
  /** The message (a regenerate's: the last one, once the conversation was read). */
  message: string;
  /** When the message was accepted (a regenerate's: when the last one was): its time in the visitor's history. */
  at: string;
  /** A streamed chat's own abort: the visitor may stop it alone (`chat.stop.requested`). */
  readonly stream?: AbortController;
  readonly turn?: string;
  readonly redo?: 'regenerate' | 'edit';
  /** What the model has written so far: a stopped reply is kept as far as it came. */
  partial: string;
  /** How the message read, once `sentiment.analyzed` said (a regenerate's is not read again). */
  appraisal?: Appraisal;
  response?: string;
}

/** A streamed reply did not end within the chat's deadline: the call counts as timed out. */
class StreamTimeoutError extends Error {
  override readonly name = 'StreamTimeoutError';
}

/** A streamed try failed after pieces of it were sent: not tried again (its `cause` is the failure). */
class PiecesSentError extends Error {
  override readonly name = 'PiecesSentError';
  constructor(cause: unknown) {
    super('the stream failed after pieces of the reply were sent', { cause });
  }
}

/**
 * The dialogue engine: once an accepted message is scored (with the emotions it would make), asks the conversational
 * provider for a reply, with those emotions in the system prompt and that visitor's conversation
 * only. Publishes `dialogue.replied`, or `dialogue.failed` with the cause after the retries that
 * fit in the chat's one deadline. A streamed chat's reply comes piece by piece, each published as
 * `chat.token`, and is replied only once the provider's stream has ended normally within that
 * deadline; a try is retried only while no piece has been sent. The visitor can stop it
 * (`dialogue.stopped`, no failure). The exchange joins the visitor's conversation only when the
 * chat is committed.
 */
export const dialogueActor = fromCallback<EventObject, DialogueInput>(({ input }) => {
  const { bus, provider, conversations, timeoutMs, maxRetries } = input;
  // Retries are made here, within one deadline for the whole chat: the client's own would give
  // each try the whole timeout.
  const client = createProviderClient(provider, { timeoutMs, maxRetries: 0, fetch: input.fetch });
  // Calls in flight, aborted on stop; a controller per call, since the openai client never removes
  // the listener it adds to a signal. A streamed call's controller is its exchange's, so that the
  // visitor can stop it alone.
  const inFlight = new Set<AbortController>();
  const exchanges = new Map<string, Exchange>();
  const stamp = isoStamps(input.clock);

  /** A JSON chat's reply: one completion, tried again while the chat's deadline leaves time. */
  async function completed(messages: readonly ChatMessage[], signal: AbortSignal): Promise<string> {
    const completion = await withinDeadline(
      (timeout) => client.chat.completions.create({ model: provider.model, messages: [...messages] }, { signal, timeout }),
      { timeoutMs, maxRetries, signal },
    );
    // A provider that answers 200 with something else than a completion must be named as such, not as a TypeError.
    if (!Array.isArray((completion as { choices?: unknown }).choices)) {
      throw new UnusableReplyError(`model ${provider.model} returned a malformed reply: no "choices" list`);
    }
    return completion.choices[0]?.message?.content ?? '';
  }

  /**
   * A streamed chat's reply: each piece goes on the bus as it comes. The chat's one deadline covers
   * it all, the stream's opening (each try given the time left) and its pieces (the call is aborted
   * when the deadline passes). A try that fails before any piece was sent is retried as a JSON
   * chat's; after a piece, the visitor has seen part of a reply, so the failure is final.
   */
  async function streamed(
    correlationId: string,
    exchange: Exchange,
    messages: readonly ChatMessage[],
    call: AbortController,
  ): Promise<string> {
    let expired = false;
    const deadline = setTimeout(() => {
      expired = true;
      call.abort();
    }, timeoutMs);
    let sent = false;
    try {
      return await withinDeadline(
        async (timeout) => {
          try {
            const stream = await client.chat.completions.create(
              { model: provider.model, messages: [...messages], stream: true },
              { signal: call.signal, timeout },
            );
            let text = '';
            for await (const chunk of stream) {
              const piece = chunk.choices?.[0]?.delta?.content;
              if (typeof piece !== 'string' || piece === '') continue;
              text += piece;
              exchange.partial = text;
              sent = true;
              publishLate(bus, { type: 'chat.token', correlationId, text: piece });
            }
            // An aborted stream may end as if normally: the flag, not the loop's end, says what happened.
            if (expired) throw new StreamTimeoutError(`model ${provider.model}: the reply did not end within ${timeoutMs} ms`);
            return text;
          } catch (error) {
            throw sent ? new PiecesSentError(error) : error;
          }
        },
        { timeoutMs, maxRetries, signal: call.signal },
      );
    } catch (error) {
      if (expired && !(error instanceof StreamTimeoutError)) {
        throw new StreamTimeoutError(`model ${provider.model}: the reply did not end within ${timeoutMs} ms`);
      }
      throw error;
    } finally {
      clearTimeout(deadline);
    }
  }

  /**
   * The prompt's conversation and the exchange's message: a regenerate or an edit answers in place
   * of the last exchange, so the model sees the conversation before it (a regenerate's message is
   * the last one). `undefined` when there is no last exchange to redo.
   */
  async function promptOf(exchange: Exchange): Promise<readonly ConversationTurn[] | undefined> {
    if (exchange.redo === undefined) return conversations.history(exchange.session);
    const turns = await conversations.messages(exchange.session);
    const last = lastExchange(turns);
    if (last === undefined) return undefined;
    if (exchange.redo === 'regenerate') {
      exchange.message = last.message;
      exchange.at = last.at;
    }
    return untimed(turns.slice(0, -2));
  }

  /** Keeps an exchange the visitor sees but the mood did not take: a regenerate's, or a stopped reply's. */
  function rememberUncommitted(exchange: Exchange, reply: string, stopped: boolean): Promise<void> {
    const { session, message, at, turn, redo, appraisal } = exchange;
    const marks = {
      ...(turn === undefined ? {} : { turn }),
      ...(stopped ? { stopped } : {}),
      ...(appraisal === undefined ? {} : { appraisal }),
      replace: redo !== undefined,
    };
    return conversations.remember(session, message, reply, { message: at, reply: stamp() }, marks);
  }

  async function reply(correlationId: string, exchange: Exchange, emotions: Emotions): Promise<void> {
    let history: readonly ConversationTurn[] | undefined;
    try {
      history = await promptOf(exchange);
    } catch (error) {
      exchanges.delete(correlationId);
      publishLate(bus, { type: 'dialogue.unavailable', correlationId, reason: (error as Error).message });
      return;
    }
    // Stopped (or the actor stopped) while the history was read: the model is not asked.
    if (exchange.stream?.signal.aborted) return;
    if (history === undefined) {
      exchanges.delete(correlationId);
      publishLate(bus, { type: 'dialogue.nothing.to.redo', correlationId });
      return;
    }
    const messages: ChatMessage[] = [
      { role: 'system', content: systemPrompt(emotions) },
      ...history,
      { role: 'user', content: exchange.message },
    ];
    const call = exchange.stream ?? new AbortController();
    inFlight.add(call);
    try {
      const text = exchange.stream ? await streamed(correlationId, exchange, messages, call) : await completed(messages, call.signal);
      const response = text.trim();
      if (response === '') throw new UnusableReplyError(`model ${provider.model} returned an empty reply`);
      exchange.response = response;
      if (call.signal.aborted) return;
      // A regenerate commits nothing to the mood: its exchange is kept now, before the reply goes out.
      if (exchange.redo === 'regenerate') {
        exchanges.delete(correlationId);
        try {
          await rememberUncommitted(exchange, response, false);
        } catch (error) {
          publishLate(bus, { type: 'dialogue.unavailable', correlationId, reason: (error as Error).message });
          return;
        }
      }
      publishLate(bus, { type: 'dialogue.replied', correlationId, response });
    } catch (error) {
      // A stopped call was answered by the stop itself; a call aborted by the actor's stop has nobody to tell.
      if (call.signal.aborted && !(error instanceof StreamTimeoutError)) return;
      exchanges.delete(correlationId);
      const cause = error instanceof PiecesSentError ? error.cause : error;
      const reason =
        cause instanceof UnusableReplyError || cause instanceof StreamTimeoutError
          ? cause.message
          : `model ${provider.model}: ${describeProviderError(cause, provider.apiKey)}`;
      const timedOut = cause instanceof StreamTimeoutError || isProviderTimeout(cause);
      publishLate(bus, { type: 'dialogue.failed', correlationId, reason, timedOut });
    } finally {
      inFlight.delete(call);
    }
  }

  /**
   * Stops the session's streamed replies that the model is still writing (one turn, or all); each
   * is kept in the history as far as it came, marked stopped, before its chat hears of the stop.
   * Resolves with how many were.
   */
  async function stop(session: SessionKey, turn: string | undefined): Promise<number> {
    const stopping: Promise<void>[] = [];
    for (const [correlationId, exchange] of exchanges) {
      if (exchange.session !== session || exchange.stream === undefined || exchange.response !== undefined) continue;
      if (turn !== undefined && exchange.turn !== turn) continue;
      exchanges.delete(correlationId);
      exchange.stream.abort();
      // A regenerate stopped before its message was read has nothing to keep.
      const kept =
        exchange.redo === 'regenerate' && exchange.message === ''
          ? Promise.resolve()
          : rememberUncommitted(exchange, exchange.partial, true);
      stopping.push(
        kept
          .catch(() => undefined)
          .then(() => {
            publishLate(bus, { type: 'dialogue.stopped', correlationId });
          }),
      );
    }
    await Promise.all(stopping);
    return stopping.length;
  }

  const subscription = new Subscription();
  let mood = input.initial;
  subscription.add(
    bus.on('chat.accepted').subscribe(({ correlationId, message, session, stream, at, turn, redo }) => {
      const exchange: Exchange = {
        session,
        message,
        at,
        partial: '',
        ...(stream ? { stream: new AbortController() } : {}),
        ...(turn === undefined ? {} : { turn }),
        ...(redo === undefined ? {} : { redo }),
      };
      exchanges.set(correlationId, exchange);
      // A regenerate's message was scored when it was first sent: its prompt shows the mood as it is.
      if (redo === 'regenerate') void reply(correlationId, exchange, mood);
    }),
  );
  subscription.add(
    bus.on('sentiment.analyzed').subscribe(({ correlationId, preview, appraisal }) => {
      const exchange = exchanges.get(correlationId);
      if (exchange) exchange.appraisal = appraisal;
      if (exchange && exchange.redo !== 'regenerate') void reply(correlationId, exchange, preview);
    }),
  );
  subscription.add(
    bus.on('mood.changed').subscribe(({ change, at, emotions }) => {
      mood = emotions;
      if (change.kind !== 'chat') return;
      const { correlationId } = change;
      const exchange = exchanges.get(correlationId);
      if (exchange?.response === undefined) return;
      exchanges.delete(correlationId);
      if (!input.remembers) return;
      const marks = {
        ...(exchange.turn === undefined ? {} : { turn: exchange.turn }),
        ...(exchange.appraisal === undefined ? {} : { appraisal: exchange.appraisal }),
        replace: exchange.redo === 'edit',
      };
      // A store that cannot write loses this exchange from the visitor's memory; the reply still goes out.
      conversations
        .remember(exchange.session, exchange.message, exchange.response, { message: exchange.at, reply: at }, marks)
        .catch(() => undefined);
    }),
  );
  subscription.add(bus.on('chat.rejected').subscribe(({ correlationId }) => exchanges.delete(correlationId)));
  subscription.add(
    bus.on('chat.stop.requested').subscribe(({ correlationId, session, turn }) => {
      void stop(session, turn).then((stopped) => publishLate(bus, { type: 'chat.stop.answered', correlationId, stopped }));
    }),
  );
  return () => {
    for (const call of inFlight) call.abort();
    inFlight.clear();
    for (const exchange of exchanges.values()) exchange.stream?.abort();
    subscription.unsubscribe();
  };
});

/** Tells the system machine that the dialogue failed, which ends the process (docs/specification.md#states) unless `ON_MODEL_FAILURE=stay`. */
export const dialogueWatch = fromCallback<EventObject, { bus: Bus }>(({ input: { bus }, sendBack }) => {
  const subscription = bus.on('dialogue.failed').subscribe(({ reason }) => sendBack({ type: 'PROVIDER_FAILED', reason }));
  return () => subscription.unsubscribe();
});
