import { withoutCredentials } from '../runtime/url-credentials.js';
import { cleanToken } from './access-token.js';
import { HubApiError, HubConfigError, HubConnectionError } from './errors.js';
import { requestIdOf, serverMessageOf } from './error-response.js';
import type { HubFetch, HubFetchResponse, HubOptions } from './hub-options.js';
import { DEFAULT_HUB_URL, hubBaseUrl } from './hub-url.js';
import { hubUserAgent } from './user-agent.js';

export interface HubRequest {
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** Starts with `/api/`; path segments taken from input must already be URL-encoded. */
  readonly path: string;
  readonly body?: unknown;
}

const NO_TOKEN =
  'No access token: pass `accessToken`, a User Access Token from https://huggingface.co/settings/tokens ' +
  '(the library reads no environment variable and no token file; the `hub` CLI finds HF_TOKEN and the token file itself).';

/**
 * Sends the request; `url` is the address as messages show it: without the userinfo a hub URL may
 * carry for a proxy (the request itself still sends it).
 */
async function send(request: HubRequest, options: HubOptions): Promise<{ response: HubFetchResponse; url: string; token: string }> {
  const target = `${hubBaseUrl(options.hubUrl ?? DEFAULT_HUB_URL, 'The `hubUrl` option')}${request.path}`;
  const url = withoutCredentials(target);
  const token = cleanToken(options.accessToken) ?? cleanToken(options.token);
  if (token === undefined) throw new HubConfigError(NO_TOKEN);
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json', 'user-agent': hubUserAgent() };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  const doFetch: HubFetch = options.fetch ?? globalThis.fetch;
  try {
    const response = await doFetch(target, {
      method: request.method,
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: options.signal,
    });
    return { response, url, token };
  } catch (error) {
    const cause = error as Error & { cause?: { message?: string } };
    const detail = cause.cause?.message ?? cause.message;
    throw new HubConnectionError(`Cannot reach the hub at ${url}: ${withoutCredentials(detail)}`, { cause: error });
  }
}

async function text(response: HubFetchResponse, url: string): Promise<string> {
  try {
    return await response.text();
  } catch (error) {
    throw new HubConnectionError(`The connection to ${url} broke while reading the answer: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * One authenticated call to the hub. Without a reader the body is discarded (DELETE); with one the
 * body is parsed as JSON and handed to it. Any failure is a HubApiError, HubConnectionError or
 * HubConfigError, never a bare fetch or JSON error.
 */
export async function hubRequest(request: HubRequest, options: HubOptions): Promise<void>;
export async function hubRequest<T>(request: HubRequest, options: HubOptions, read: (body: unknown) => T): Promise<T>;
export async function hubRequest<T>(request: HubRequest, options: HubOptions, read?: (body: unknown) => T): Promise<T | undefined> {
  const { response, url, token } = await send(request, options);
  const body = await text(response, url);
  const context = { status: response.status, requestId: requestIdOf(response.headers), method: request.method, url };
  // A hub or proxy that echoes the Authorization header back must not put the token in a message.
  const serverMessage = serverMessageOf(response.headers, body)?.replaceAll(token, '[token]');
  if (!response.ok) throw new HubApiError({ ...context, serverMessage });
  if (!read) return;
  try {
    return read(JSON.parse(body));
  } catch (error) {
    const reason =
      error instanceof SyntaxError
        ? 'the hub answered with something that is not JSON'
        : `unexpected answer from the hub: ${(error as Error).message}`;
    throw new HubApiError({ ...context, reason });
  }
}
