import type { ChatCompletionMessageParam as ChatMessage } from 'openai/resources/chat/completions';
import type { ProviderConfig } from '../config/chat-config.js';
import { EMOTION_NAMES, type Emotions } from '../emotions/emotions.js';
import { roundEmotions } from '../emotions/model.js';
import { withinDeadline } from './deadline.js';
import { createProviderClient, describeProviderError, isProviderTimeout } from './openai-client.js';

export type { ChatCompletionMessageParam as ChatMessage } from 'openai/resources/chat/completions';

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

export interface ReplyWriterOptions {
  readonly provider: ProviderConfig;
  /** The whole chat's time with the model, retries included. */
  readonly timeoutMs: number;
  /** Retries before a failure counts, each made only while time is left. */
  readonly maxRetries: number;
  readonly fetch?: typeof fetch;
}

/** Why a reply could not be written, in the words the log and the system machine use. */
export interface ReplyFailure {
  readonly reason: string;
  /** The chat's deadline passed (`LLM_TIMEOUT_MS`), rather than the provider failing. */
  readonly timedOut: boolean;
}

/**
 * Writes a chat's reply with the conversational provider, within the chat's one deadline (retries
 * are made here: the client's own would give each try the whole timeout). A reply is the model's
 * text, trimmed, never empty.
 */
export interface ReplyWriter {
  /** A JSON chat's reply: one completion, tried again while the deadline leaves time. */
  complete(messages: readonly ChatMessage[], signal: AbortSignal): Promise<string>;
  /**
   * A streamed chat's reply: `onPiece` gets each piece as it comes. The deadline covers it all, the
   * stream's opening (each try given the time left) and its pieces (`call` is aborted when it
   * passes). A try that fails before any piece was sent is retried; after a piece, the visitor has
   * seen part of a reply, so the failure is final.
   */
  stream(messages: readonly ChatMessage[], call: AbortController, onPiece: (piece: string) => void): Promise<string>;
  /** What a failed `complete` or `stream` means. */
  failure(error: unknown): ReplyFailure;
  /** Whether the failure is the deadline's, which an aborted call still reports (a stop is not). */
  expired(error: unknown): boolean;
}

export function createReplyWriter({ provider, timeoutMs, maxRetries, fetch }: ReplyWriterOptions): ReplyWriter {
  const client = createProviderClient(provider, { timeoutMs, maxRetries: 0, fetch });
  const usable = (text: string): string => {
    const reply = text.trim();
    if (reply === '') throw new UnusableReplyError(`model ${provider.model} returned an empty reply`);
    return reply;
  };
  const timedOut = () => new StreamTimeoutError(`model ${provider.model}: the reply did not end within ${timeoutMs} ms`);

  return {
    async complete(messages, signal) {
      const completion = await withinDeadline(
        (timeout) => client.chat.completions.create({ model: provider.model, messages: [...messages] }, { signal, timeout }),
        { timeoutMs, maxRetries, signal },
      );
      // A provider that answers 200 with something else than a completion must be named as such, not as a TypeError.
      if (!Array.isArray((completion as { choices?: unknown }).choices)) {
        throw new UnusableReplyError(`model ${provider.model} returned a malformed reply: no "choices" list`);
      }
      return usable(completion.choices[0]?.message?.content ?? '');
    },

    async stream(messages, call, onPiece) {
      let expired = false;
      const deadline = setTimeout(() => {
        expired = true;
        call.abort();
      }, timeoutMs);
      let sent = false;
      try {
        const text = await withinDeadline(
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
                sent = true;
                onPiece(piece);
              }
              // An aborted stream may end as if normally: the flag, not the loop's end, says what happened.
              if (expired) throw timedOut();
              return text;
            } catch (error) {
              throw sent ? new PiecesSentError(error) : error;
            }
          },
          { timeoutMs, maxRetries, signal: call.signal },
        );
        return usable(text);
      } catch (error) {
        if (expired && !(error instanceof StreamTimeoutError)) throw timedOut();
        throw error;
      } finally {
        clearTimeout(deadline);
      }
    },

    failure(error) {
      const cause = error instanceof PiecesSentError ? error.cause : error;
      const reason =
        cause instanceof UnusableReplyError || cause instanceof StreamTimeoutError
          ? cause.message
          : `model ${provider.model}: ${describeProviderError(cause, provider.apiKey)}`;
      return { reason, timedOut: cause instanceof StreamTimeoutError || isProviderTimeout(cause) };
    },

    expired: (error) => error instanceof StreamTimeoutError,
  };
}
