import { Subscription } from 'rxjs';
import { fromCallback, type EventObject } from 'xstate';
import type { Bus } from '../bus/bus.js';
import type { ProviderConfig } from '../config/chat-config.js';
import { EMOTION_NAMES, type Emotions } from '../emotions/emotions.js';
import { roundEmotions } from '../emotions/model.js';
import { createProviderClient, describeProviderError } from '../providers/openai-client.js';
import type { ConversationMemory } from './memory-store.js';
import { publishLate } from './publish.js';

export interface DialogueInput {
  readonly bus: Bus;
  readonly provider: ProviderConfig;
  readonly timeoutMs: number;
  /** The client's retries before a failure counts. */
  readonly maxRetries: number;
  readonly memory: ConversationMemory;
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

/**
 * The dialogue engine: once an accepted message has changed the emotions, asks the conversational
 * provider for a reply, with the emotions in the system prompt and the remembered conversation.
 * Publishes `dialogue.replied`, or `dialogue.failed` with the cause after the client's retries.
 */
export const dialogueActor = fromCallback<EventObject, DialogueInput>(({ input }) => {
  const { bus, provider, memory } = input;
  const client = createProviderClient(provider, {
    timeoutMs: input.timeoutMs,
    maxRetries: input.maxRetries,
    fetch: input.fetch,
  });
  // One controller per call, aborted together on stop: a single shared signal would collect one
  // listener per call in flight, and EventTarget's duplicate check makes adding them quadratic.
  const inFlight = new Set<AbortController>();
  const messages = new Map<string, string>();

  async function reply(correlationId: string, message: string, emotions: Emotions): Promise<void> {
    const abort = new AbortController();
    inFlight.add(abort);
    try {
      const completion = await client.chat.completions.create(
        {
          model: provider.model,
          messages: [{ role: 'system', content: systemPrompt(emotions) }, ...memory.history(), { role: 'user', content: message }],
        },
        { signal: abort.signal },
      );
      // A provider that answers 200 with something else than a completion must be named as such, not as a TypeError.
      if (!Array.isArray((completion as { choices?: unknown }).choices)) {
        throw new UnusableReplyError(`model ${provider.model} returned a malformed reply: no "choices" list`);
      }
      const response = completion.choices[0]?.message?.content?.trim() ?? '';
      if (response === '') throw new UnusableReplyError(`model ${provider.model} returned an empty reply`);
      memory.remember(message, response);
      if (!abort.signal.aborted) publishLate(bus, { type: 'dialogue.replied', correlationId, response });
    } catch (error) {
      const reason = error instanceof UnusableReplyError ? error.message : `model ${provider.model}: ${describeProviderError(error)}`;
      if (!abort.signal.aborted) publishLate(bus, { type: 'dialogue.failed', correlationId, reason });
    } finally {
      inFlight.delete(abort);
    }
  }

  const subscription = new Subscription();
  subscription.add(bus.on('chat.accepted').subscribe(({ correlationId, message }) => messages.set(correlationId, message)));
  subscription.add(
    bus.on('emotions.changed').subscribe(({ correlationId, emotions }) => {
      const message = correlationId === undefined ? undefined : messages.get(correlationId);
      if (correlationId === undefined || message === undefined) return;
      messages.delete(correlationId);
      void reply(correlationId, message, emotions);
    }),
  );
  return () => {
    for (const abort of inFlight) abort.abort();
    subscription.unsubscribe();
  };
});

/** Tells the system machine that the dialogue failed, which ends the process (seed 000). */
export const dialogueWatch = fromCallback<EventObject, { bus: Bus }>(({ input: { bus }, sendBack }) => {
  const subscription = bus.on('dialogue.failed').subscribe(({ reason }) => sendBack({ type: 'PROVIDER_FAILED', reason }));
  return () => subscription.unsubscribe();
});
