import { Subscription } from 'rxjs';
import { fromCallback, type EventObject } from 'xstate';
import type { Bus } from '../bus/bus.js';
import type { ChatRejected, SessionKey } from '../bus/events.js';
import { publishLate } from '../bus/publish-late.js';
import type { ModelFailurePolicy, ProviderConfig } from '../config/chat-config.js';
import {
  lastExchange,
  untimed,
  type ConversationStore,
  type ConversationTurn,
  type ExchangeMarks,
} from '../conversations/conversation-store.js';
import type { Appraisal, Emotions, Sentiment } from '../emotions/emotions.js';
import type { EmotionState } from '../emotions/state.js';
import type { MoodLedger } from '../mood-ledger/mood-ledger.js';
import { modelAppraisal, UnusableAppraisalError, type AppraisalReader, type ModelReading } from '../providers/appraisal-reader.js';
import { createReplyWriter, systemPrompt, type ChatMessage } from '../providers/reply-writer.js';
import { isoStamps, type Clock } from '../runtime/clock.js';

export interface DialogueInput {
  readonly bus: Bus;
  /** Where a replied chat commits its change; the actor does not know which ledger it is. */
  readonly ledger: MoodLedger;
  /** Each visitor's conversation; the actor does not know which store it is. */
  readonly conversations: ConversationStore;
  readonly provider: ProviderConfig;
  /** The whole chat's time with the model, retries included. */
  readonly timeoutMs: number;
  /** Retries before a failure counts, each made only while time is left. */
  readonly maxRetries: number;
  /** Only words the rejection: whether the service goes on after a model failure. */
  readonly onModelFailure: ModelFailurePolicy;
  /** The mood the run starts from: what a regenerate's prompt shows and its reply carries until a change comes. */
  readonly initial: Pick<EmotionState, 'emotions' | 'avatarShape'>;
  /** The times of the exchanges in the history. */
  readonly clock: Clock;
  readonly fetch?: typeof fetch;
  /** `APPRAISAL=model`: the chat model reads each new message too, beside the reply. */
  readonly secondReader?: SecondReader;
}

/** The chat model as a second reader, and how long its reading is waited for once the reply has ended. */
export interface SecondReader {
  readonly reader: AppraisalReader;
  readonly waitMs: number;
  /** Why a reading was not used; rate-limited by the caller (a failing reader is not a line per chat). */
  readonly warn: (line: string) => void;
}

type Rejection = Exclude<ChatRejected['reason'], 'initializing' | 'missing_llm_key' | 'system_failed'>;

/** One accepted chat, from acceptance to its answer: everything known of it so far. */
interface Chat {
  readonly session: SessionKey;
  /** The message (a regenerate's: the last one, once the conversation was read). */
  message: string;
  /** When the message was accepted (a regenerate's: when the last one was): its time in the visitor's history. */
  at: string;
  readonly turn?: string;
  readonly redo?: 'regenerate' | 'edit';
  /** A streamed chat's own abort: the visitor may stop it alone (`chat.stop.requested`). */
  readonly stream?: AbortController;
  /** What the model has written so far: a stopped reply is kept as far as it came. */
  partial: string;
  /** How the message read, once `sentiment.analyzed` said (a regenerate's is not read again); the model's reading replaces it when used. */
  reading?: { readonly sentiment: Sentiment; readonly appraisal: Appraisal };
  /** The chat model's reading under way (`APPRAISAL=model`), asked once the reply was. */
  second?: { readonly reading: Promise<ModelReading>; readonly call: AbortController };
  /** Set once the model replied: from then on the chat waits for its own change to come back from the ledger, and cannot be stopped. */
  response?: string;
}

/**
 * How a chat's exchange joins the visitor's history: its turn, how its message read, and whether it
 * takes the last exchange's place (an edit, or a regenerate: only an edit ever commits, and a
 * regenerate is kept uncommitted), or was stopped.
 */
function marksOf(chat: Chat, stopped = false): ExchangeMarks {
  return {
    ...(chat.turn === undefined ? {} : { turn: chat.turn }),
    ...(stopped ? { stopped } : {}),
    ...(chat.reading === undefined ? {} : { appraisal: chat.reading.appraisal }),
    replace: chat.redo !== undefined,
  };
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
 * The dialogue: the one owner of every chat from its acceptance to its answer. Once an accepted
 * message is read (`sentiment.analyzed`, with the emotions it would make), it asks the
 * conversational provider for a reply (src/providers/reply-writer.ts), with those emotions in the
 * system prompt and that visitor's conversation only; a streamed chat's pieces go out as
 * `chat.token`. Then it appends the chat's change (decay, then the message's appraisal) to the mood
 * ledger, with the exchange, and answers `chat.replied` only once the ledger has delivered that
 * very change (`mood.changed`), with the mood right after it. A regenerate appends nothing: its
 * reply carries the mood as it is. A chat the ledger refuses, whose conversation cannot be read, or
 * whose model call fails is `chat.rejected` and changes nothing; a model failure is also
 * `dialogue.failed`, which the system machine hears. The visitor can stop a streamed reply the
 * model is still writing; it is kept in the history as far as it came. When the system fails, the
 * chats in flight run to their end (`chat.drain.requested`) and those still going at the drain's
 * deadline are refused.
 */
export const dialogueActor = fromCallback<EventObject, DialogueInput>(({ input }) => {
  const { bus, ledger, conversations, onModelFailure, secondReader: second } = input;
  const writer = createReplyWriter(input);
  // Whether the exchange joins the conversation here: not when the ledger commits it with the change.
  const remembers = ledger.keepsConversations !== true;
  const stamp = isoStamps(input.clock);
  const chats = new Map<string, Chat>();
  // Calls in flight, aborted on stop; a controller per call, since the openai client never removes
  // the listener it adds to a signal. A streamed call's controller is its chat's, so that the
  // visitor can stop it alone.
  const inFlight = new Set<AbortController>();
  let mood = { emotions: input.initial.emotions, avatarShape: input.initial.avatarShape };
  let drain: { readonly correlationId: string; readonly timer: NodeJS.Timeout; ended: number } | undefined;

  /** Ends the drain once no chat is left in flight; `cut` counts those refused at its deadline. */
  const settleDrain = (cut = 0): void => {
    if (drain === undefined || chats.size > 0) return;
    clearTimeout(drain.timer);
    publishLate(bus, { type: 'chat.drained', correlationId: drain.correlationId, ended: drain.ended, cut });
    drain = undefined;
  };
  /** Forgets the chat; false when it was answered already (stopped, drained). */
  const answered = (correlationId: string): boolean => {
    if (!chats.delete(correlationId)) return false;
    if (drain) drain.ended += 1;
    return true;
  };
  const reject = (correlationId: string, reason: Rejection, error: string): void => {
    if (answered(correlationId)) publishLate(bus, { type: 'chat.rejected', correlationId, reason, error });
    settleDrain();
  };
  /** Answers with the mood as it is now; with how the message read, unless it was not read again (a regenerate). */
  const reply = (correlationId: string, response: string, appraisal?: Appraisal): void => {
    if (answered(correlationId))
      publishLate(bus, { type: 'chat.replied', correlationId, response, ...mood, ...(appraisal ? { appraisal } : {}) });
    settleDrain();
  };
  const unreadable = (correlationId: string, error: unknown): void =>
    reject(
      correlationId,
      'unavailable',
      `The conversation could not be read (${(error as Error).message}); nothing changed. Please try again.`,
    );

  /**
   * The prompt's conversation: a regenerate or an edit answers in place of the last exchange, so the
   * model sees the conversation before it (a regenerate's message is the last one). `undefined`
   * when there is no last exchange to redo.
   */
  async function promptOf(chat: Chat): Promise<readonly ConversationTurn[] | undefined> {
    if (chat.redo === undefined) return conversations.history(chat.session);
    const turns = await conversations.messages(chat.session);
    const last = lastExchange(turns);
    if (last === undefined) return undefined;
    if (chat.redo === 'regenerate') {
      chat.message = last.message;
      chat.at = last.at;
    }
    return untimed(turns.slice(0, -2));
  }

  /** Keeps an exchange the visitor sees but the mood did not take: a regenerate's, or a stopped reply's. */
  function rememberUncommitted(chat: Chat, response: string, stopped: boolean): Promise<void> {
    return conversations.remember(chat.session, chat.message, response, { message: chat.at, reply: stamp() }, marksOf(chat, stopped));
  }

  /** The replied chat's change goes to the ledger with its exchange; the answer waits for the ledger to deliver it. */
  function commit(correlationId: string, chat: Chat, response: string, reading: NonNullable<Chat['reading']>): void {
    // The scores only: the mood is shared, the message's words (the cues) stay with its visitor.
    const { emotions, neutral, strongest, source } = reading.appraisal;
    const change = {
      kind: 'chat',
      correlationId,
      sentiment: reading.sentiment,
      appraisal: { emotions, neutral, strongest, ...(source === undefined ? {} : { source }) },
      at: stamp(),
    } as const;
    ledger
      .append(change, {
        session: chat.session,
        message: chat.message,
        reply: response,
        times: { message: chat.at, reply: change.at },
        ...marksOf(chat),
      })
      .catch((error: unknown) => {
        const cause = error instanceof Error ? error.message : String(error);
        reject(correlationId, 'unavailable', `The mood could not be recorded (${cause}); nothing changed. Please try again.`);
      });
  }

  async function write(correlationId: string, chat: Chat, emotions: Emotions): Promise<void> {
    let history: readonly ConversationTurn[] | undefined;
    try {
      history = await promptOf(chat);
    } catch (error) {
      return unreadable(correlationId, error);
    }
    // Stopped (or the actor stopped) while the history was read: the model is not asked.
    if (chat.stream?.signal.aborted) return;
    if (history === undefined) return reject(correlationId, 'nothing_to_redo', 'There is no last message to regenerate or edit.');
    const messages: ChatMessage[] = [
      { role: 'system', content: systemPrompt(emotions) },
      ...history,
      { role: 'user', content: chat.message },
    ];
    const call = chat.stream ?? new AbortController();
    inFlight.add(call);
    let response: string;
    let asked = false;
    try {
      const replying = chat.stream
        ? writer.stream(messages, call, (piece) => {
            chat.partial += piece;
            publishLate(bus, { type: 'chat.token', correlationId, text: piece });
            // Once the first piece is out: the reading's request never competes with the first token.
            if (!asked) {
              asked = true;
              askSecondReader(chat);
            }
          })
        : writer.complete(messages, call.signal);
      // A JSON chat answers at the end: its reading runs beside the whole reply.
      if (!chat.stream) askSecondReader(chat);
      response = await replying;
    } catch (error) {
      chat.second?.call.abort();
      // A stopped call was answered by the stop itself; a call aborted by the actor's stop has nobody to tell.
      if (call.signal.aborted && !writer.expired(error)) return;
      const { reason, timedOut } = writer.failure(error);
      const messages = FAILURE_MESSAGES[onModelFailure];
      reject(correlationId, timedOut ? 'provider_timeout' : 'provider_failed', timedOut ? messages.timedOut : messages.failed);
      // After the answer: the system machine may go down on hearing it (ON_MODEL_FAILURE=exit).
      publishLate(bus, { type: 'dialogue.failed', correlationId, reason, timedOut });
      return;
    } finally {
      inFlight.delete(call);
    }
    chat.response = response;
    if (call.signal.aborted) return;
    // The message was read when it was first sent: a new reply to it moves nothing, decay included,
    // and its exchange is kept now, before the reply goes out.
    if (chat.redo === 'regenerate') {
      try {
        await rememberUncommitted(chat, response, false);
      } catch (error) {
        return unreadable(correlationId, error);
      }
      return reply(correlationId, response);
    }
    chat.reading = { ...chat.reading!, appraisal: await settledAppraisal(correlationId, chat.reading!.appraisal, chat.second) };
    commit(correlationId, chat, response, chat.reading);
  }

  /** Asks the chat model to read the chat's new message (`APPRAISAL=model`); a regenerate's was read when first sent. */
  function askSecondReader(chat: Chat): void {
    if (second === undefined || chat.reading === undefined || chat.redo === 'regenerate') return;
    const call = new AbortController();
    inFlight.add(call);
    const reading = second.reader.read(chat.message, call.signal);
    // Settled when the reply ends; until then a failure is nobody's unhandled rejection.
    reading.catch(() => undefined).finally(() => inFlight.delete(call));
    chat.second = { reading, call };
  }

  /**
   * The appraisal the chat commits with: the chat model's when it is valid and comes before the
   * reply's end plus `waitMs`, else the local one (`modelAppraisal` says which cues it keeps). What
   * the model's reading came to, and cost, goes out as `appraisal.model.read`.
   */
  async function settledAppraisal(correlationId: string, local: Appraisal, pending: Chat['second']): Promise<Appraisal> {
    if (second === undefined || pending === undefined) return { ...local, source: 'local' };
    const { model } = second.reader;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(resolve, second.waitMs, undefined);
    });
    try {
      const read = await Promise.race([pending.reading, late]);
      if (read !== undefined) {
        const { appraisal, usage } = read;
        publishLate(bus, {
          type: 'appraisal.model.read',
          correlationId,
          model,
          outcome: 'used',
          reading: appraisal.reading,
          ...(usage ? { usage } : {}),
        });
        return modelAppraisal(appraisal, local);
      }
      publishLate(bus, { type: 'appraisal.model.read', correlationId, model, outcome: 'late' });
      second.warn(
        `the second reader (model ${model}) did not read within ${second.waitMs} ms of the reply's end; the local reading is used`,
      );
    } catch (error) {
      const usage = error instanceof UnusableAppraisalError ? error.usage : undefined;
      publishLate(bus, { type: 'appraisal.model.read', correlationId, model, outcome: 'failed', ...(usage ? { usage } : {}) });
      second.warn(`the second reader failed (${second.reader.describe(error)}); the local reading is used`);
    } finally {
      clearTimeout(timer);
      pending.call.abort();
    }
    return { ...local, source: 'local' };
  }

  /**
   * Stops the session's streamed replies that the model is still writing (one turn, or all); each
   * is kept in the history as far as it came, marked stopped, before its chat is answered as
   * stopped. Resolves with how many were.
   */
  async function stop(session: SessionKey, turn: string | undefined): Promise<number> {
    const stopping: Promise<void>[] = [];
    for (const [correlationId, chat] of chats) {
      if (chat.session !== session || chat.stream === undefined || chat.response !== undefined) continue;
      if (turn !== undefined && chat.turn !== turn) continue;
      chat.stream.abort();
      // A regenerate stopped before its message was read has nothing to keep.
      const kept = chat.redo === 'regenerate' && chat.message === '' ? Promise.resolve() : rememberUncommitted(chat, chat.partial, true);
      stopping.push(kept.catch(() => undefined).then(() => reject(correlationId, 'stopped', 'The reply was stopped; nothing changed.')));
    }
    await Promise.all(stopping);
    return stopping.length;
  }

  const subscription = new Subscription();
  subscription.add(
    bus.on('chat.accepted').subscribe(({ correlationId, message, session, stream, at, turn, redo }) => {
      const chat: Chat = {
        session,
        message,
        at,
        partial: '',
        ...(stream ? { stream: new AbortController() } : {}),
        ...(turn === undefined ? {} : { turn }),
        ...(redo === undefined ? {} : { redo }),
      };
      chats.set(correlationId, chat);
      // A regenerate's message was read when it was first sent: its prompt shows the mood as it is.
      if (redo === 'regenerate') void write(correlationId, chat, mood.emotions);
    }),
  );
  subscription.add(
    bus.on('sentiment.analyzed').subscribe(({ correlationId, sentiment, appraisal, preview }) => {
      const chat = chats.get(correlationId);
      if (chat === undefined || chat.redo === 'regenerate') return;
      chat.reading = { sentiment, appraisal };
      void write(correlationId, chat, preview);
    }),
  );
  // The chat's own change is back from the ledger: its exchange joins the conversation (unless the
  // ledger committed it), and the reply carries the mood right after the change.
  subscription.add(
    bus.on('mood.changed').subscribe(({ change, emotions, avatarShape }) => {
      mood = { emotions, avatarShape };
      if (change.kind !== 'chat') return;
      const { correlationId } = change;
      const chat = chats.get(correlationId);
      if (chat?.response === undefined) return;
      if (remembers) {
        // A store that cannot write loses this exchange from the visitor's memory; the reply still goes out.
        conversations
          .remember(chat.session, chat.message, chat.response, { message: chat.at, reply: change.at }, marksOf(chat))
          .catch(() => undefined);
      }
      reply(correlationId, chat.response, chat.reading?.appraisal);
    }),
  );
  subscription.add(
    bus.on('chat.stop.requested').subscribe(({ correlationId, session, turn }) => {
      void stop(session, turn).then((stopped) => publishLate(bus, { type: 'chat.stop.answered', correlationId, stopped }));
    }),
  );
  // The system is going down: the chats in flight run to their end (a healthy reply is never cut by
  // another visitor's failure), and those still going at the deadline get their answer before the exit.
  subscription.add(
    bus.on('chat.drain.requested').subscribe(({ correlationId, withinMs }) => {
      const timer = setTimeout(() => {
        const cut = chats.size;
        for (const id of [...chats.keys()]) {
          chats.delete(id);
          publishLate(bus, { type: 'chat.rejected', correlationId: id, reason: 'system_failed', error: FAILURE_MESSAGES.exit.failed });
        }
        settleDrain(cut);
      }, withinMs);
      drain = { correlationId, timer, ended: 0 };
      settleDrain();
    }),
  );
  return () => {
    if (drain) clearTimeout(drain.timer);
    for (const call of inFlight) call.abort();
    inFlight.clear();
    for (const chat of chats.values()) chat.stream?.abort();
    subscription.unsubscribe();
  };
});

/** Tells the system machine that the dialogue failed, which ends the process (docs/specification.md#states) unless `ON_MODEL_FAILURE=stay`. */
export const dialogueWatch = fromCallback<EventObject, { bus: Bus }>(({ input: { bus }, sendBack }) => {
  const subscription = bus.on('dialogue.failed').subscribe(({ reason }) => sendBack({ type: 'PROVIDER_FAILED', reason }));
  return () => subscription.unsubscribe();
});
