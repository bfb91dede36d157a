import OpenAI from 'openai';
import type { ProviderConfig } from '../config/chat-config.js';
import { createProviderClient, describeProviderError } from './openai-client.js';

/** A provider key that did not validate; the message says why, never the key. */
export class KeyValidationError extends Error {
  override readonly name = 'KeyValidationError';
}

/**
 * Checks a key by listing the provider's models, once (no retries). HTTP 429 means the key was
 * accepted and only the rate is exceeded, so it counts as valid (seed 000). Anything else that is
 * not a success (401, 403, other statuses, connection errors, timeouts) rejects.
 * Resolves with a short note for the log; `signal` abandons the call (startup failed elsewhere).
 */
export async function validateProviderKey(
  provider: ProviderConfig,
  timeoutMs: number,
  signal?: AbortSignal,
  fetch?: typeof globalThis.fetch,
): Promise<string> {
  const client = createProviderClient(provider, { timeoutMs, maxRetries: 0, fetch });
  try {
    await client.models.list({ signal });
    return 'key accepted';
  } catch (error) {
    if (error instanceof OpenAI.RateLimitError) return 'key accepted (HTTP 429: rate limited)';
    const where = provider.baseURL ?? 'the OpenAI API';
    throw new KeyValidationError(`listing models at ${where} failed: ${describeProviderError(error)}`);
  }
}

/** Whether two providers are the same account on the same server, so one validation serves both. */
export function sameProvider(a: ProviderConfig, b: ProviderConfig): boolean {
  return a.apiKey === b.apiKey && (a.baseURL ?? '') === (b.baseURL ?? '');
}
