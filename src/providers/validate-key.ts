import OpenAI from 'openai';
import type { ProviderConfig } from '../config/chat-config.js';
import { withoutCredentials } from '../runtime/url-credentials.js';
import { createProviderClient, describeProviderError } from './openai-client.js';

/** A provider key that did not validate, or a model the provider does not offer; the message says why, never the key. */
export class KeyValidationError extends Error {
  override readonly name = 'KeyValidationError';
}

/** What the key check found. */
export interface KeyValidation {
  /** A short note for the log. */
  readonly detail: string;
  /** Set when the key counts as valid but the models could not be checked: why (a 429, a list of another shape). */
  readonly modelsUnchecked?: string;
}

/** How many of the provider's models a failure names, so that the line stays one line. */
const MODELS_NAMED = 10;

/** The provider's address for a message: its base URL without credentials. */
export function providerAddress(provider: ProviderConfig): string {
  return provider.baseURL === undefined ? 'the OpenAI API (https://api.openai.com/v1)' : withoutCredentials(provider.baseURL);
}

/** "a, b, c" and how many more, or a note that the list was empty. */
function describeOffer(offered: readonly string[]): string {
  if (offered.length === 0) return 'it lists no models';
  const more = offered.length > MODELS_NAMED ? ` and ${offered.length - MODELS_NAMED} more` : '';
  return `it offers ${offered.slice(0, MODELS_NAMED).join(', ')}${more}`;
}

/**
 * Checks a key by listing the provider's models, once (no retries), and checks that each of
 * `models` is in the list. HTTP 429 means the key was accepted and only the rate is exceeded, so it
 * counts as valid (docs/specification.md#states), with the models unchecked; so does a success that is not a model list. Anything else that is not a success (401,
 * 403, other statuses, connection errors, timeouts), or a model that is not offered, rejects.
 * `signal` abandons the call (startup failed elsewhere).
 */
export async function validateProviderKey(
  provider: ProviderConfig,
  models: readonly string[],
  timeoutMs: number,
  signal?: AbortSignal,
  fetch?: typeof globalThis.fetch,
): Promise<KeyValidation> {
  const client = createProviderClient(provider, { timeoutMs, maxRetries: 0, fetch });
  let listed: unknown;
  try {
    // The raw body, not `models.list()`: its page turns a body of another shape into an empty list.
    listed = (await client.get<{ data?: unknown } | null>('/models', { signal }))?.data;
  } catch (error) {
    if (error instanceof OpenAI.RateLimitError) {
      return { detail: 'key accepted (HTTP 429: rate limited)', modelsUnchecked: 'it answered HTTP 429 (rate limited)' };
    }
    throw new KeyValidationError(`listing models at ${providerAddress(provider)} failed: ${describeProviderError(error, provider.apiKey)}`);
  }
  // A success that is not a model list still accepted the key; only the models cannot be read from it.
  if (!Array.isArray(listed))
    return { detail: 'key accepted (the answer was not a model list)', modelsUnchecked: 'its answer was not a model list' };
  const offered = listed.map((model: { id?: unknown }) => String(model?.id));
  const known = new Set(offered.map(sameModel));
  const missing = models.find((model) => !known.has(sameModel(model)));
  if (missing !== undefined) {
    throw new KeyValidationError(`model "${missing}" is not offered by ${providerAddress(provider)}: ${describeOffer(offered)}`);
  }
  return { detail: `key accepted, model ${models.join(', ')} offered` };
}

/** The name a model is known by: `name` and `name:latest` are one model (Ollama lists the tag, users leave it off). */
export function sameModel(name: string): string {
  return name.endsWith(':latest') ? name.slice(0, -':latest'.length) : name;
}

/** Whether two providers are the same account on the same server, so one validation serves both. */
export function sameProvider(a: ProviderConfig, b: ProviderConfig): boolean {
  return a.apiKey === b.apiKey && (a.baseURL ?? '') === (b.baseURL ?? '');
}
