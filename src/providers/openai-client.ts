import OpenAI from 'openai';
import type { ProviderConfig } from '../config/chat-config.js';
import { withoutCredentials } from '../runtime/url-credentials.js';
import { abortHonoringFetch } from './abort-honoring-fetch.js';

export interface ClientOptions {
  readonly timeoutMs: number;
  /** The client's own retries (with backoff) on connection errors, 408, 409, 429 and 5xx. */
  readonly maxRetries: number;
  /** The HTTP client; defaults to the global fetch (tests pass an in-process stand-in). */
  readonly fetch?: typeof fetch;
}

/** An `openai` client for one OpenAI-compatible provider. */
export function createProviderClient(provider: ProviderConfig, options: ClientOptions): OpenAI {
  return new OpenAI({
    // An absent key never gets this far (that is the key-missing phase); the client insists on a string.
    apiKey: provider.apiKey ?? '',
    baseURL: provider.baseURL,
    timeout: options.timeoutMs,
    maxRetries: options.maxRetries,
    fetch: abortHonoringFetch(options.fetch),
  });
}

/** fetch wraps the useful part ("connect ECONNREFUSED 127.0.0.1:9") in causes of "fetch failed". */
function innermostMessage(error: Error): string {
  let current: Error = error;
  while (current.cause instanceof Error) current = current.cause;
  return current.message;
}

/** The provider call ran out of time (as opposed to failing): answered 504 rather than 502. */
export function isProviderTimeout(error: unknown): boolean {
  return error instanceof OpenAI.APIConnectionTimeoutError;
}

/**
 * One line saying what went wrong with a provider call: kind, HTTP status, provider's message.
 * Never the key: neither in a URL nor where a provider echoes it back (`apiKey`, when given).
 */
export function describeProviderError(error: unknown, apiKey?: string): string {
  const described = withoutCredentials(describe(error));
  return apiKey ? described.replaceAll(apiKey, '[redacted]') : described;
}

function describe(error: unknown): string {
  if (error instanceof OpenAI.APIConnectionTimeoutError) return 'the request timed out';
  if (error instanceof OpenAI.APIConnectionError) return `cannot connect (${innermostMessage(error)})`;
  if (error instanceof OpenAI.APIError) {
    const id = error.requestID ? `, request id ${error.requestID}` : '';
    return `${error.constructor.name} (HTTP ${error.status ?? '?'}): ${error.message}${id}`;
  }
  return error instanceof Error ? error.message : String(error);
}
