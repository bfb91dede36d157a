import { setTimeout as wait } from 'node:timers/promises';
import OpenAI from 'openai';

export interface DeadlineOptions {
  /** The whole call's time, retries and their waits included (`LLM_TIMEOUT_MS`). */
  readonly timeoutMs: number;
  /** Retries after the first try, each made only while time is left. */
  readonly maxRetries: number;
  /** Aborts a wait between tries (the dialogue stopping). */
  readonly signal?: AbortSignal;
  /** Monotonic milliseconds; tests drive it. */
  readonly now?: () => number;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Uniform in [0, 1): the jitter of the back-off. */
  readonly random?: () => number;
}

/**
 * Whether a failed try is worth another: what the openai client retries (a connection failure, HTTP
 * 408, 409, 429 or 5xx, or the provider's `x-should-retry`), except a timeout: it spent the time left.
 */
export function isRetryable(error: unknown): boolean {
  if (error instanceof OpenAI.APIConnectionTimeoutError) return false;
  if (error instanceof OpenAI.APIConnectionError) return true;
  if (!(error instanceof OpenAI.APIError)) return false;
  const advice = error.headers?.get('x-should-retry');
  if (advice === 'true' || advice === 'false') return advice === 'true';
  const status = error.status ?? 0;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** The wait before retry `retry` (0 first): the provider's Retry-After, else 0.5 s doubling up to 8 s, less up to 25 % (as the openai client). */
export function retryDelayMs(error: unknown, retry: number, random: () => number): number {
  const headers = error instanceof OpenAI.APIError ? error.headers : undefined;
  const afterMs = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(afterMs)) return Math.max(0, afterMs);
  const after = headers?.get('retry-after');
  if (after) {
    const seconds = Number.parseFloat(after);
    const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(after) - Date.now();
    if (Number.isFinite(ms)) return Math.max(0, ms);
  }
  return Math.min(500 * 2 ** retry, 8000) * (1 - random() * 0.25);
}

/**
 * Runs `attempt`, given the time it may take, until it succeeds, fails for good or the deadline
 * passes: one deadline for the whole call, so `LLM_TIMEOUT_MS` is what a visitor waits at most,
 * not that times the tries. A retry is made only when time is left after its wait; otherwise the
 * last try's error is the outcome (a try that ran out of time is a timeout).
 */
export async function withinDeadline<T>(attempt: (timeoutMs: number) => Promise<T>, options: DeadlineOptions): Promise<T> {
  const now = options.now ?? (() => performance.now());
  const sleep = options.sleep ?? ((ms: number, signal?: AbortSignal) => wait(ms, undefined, { signal }));
  const random = options.random ?? Math.random;
  const deadline = now() + options.timeoutMs;
  for (let retry = 0; ; retry += 1) {
    try {
      return await attempt(Math.max(1, Math.ceil(deadline - now())));
    } catch (error) {
      if (retry >= options.maxRetries || !isRetryable(error)) throw error;
      const delay = retryDelayMs(error, retry, random);
      if (now() + delay >= deadline) throw error;
      await sleep(delay, options.signal);
    }
  }
}
