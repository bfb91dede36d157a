import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Test } from 'tap';
import { completion, modelList } from '../support/chat-system-harness.js';

/** The provider's answer to one request (always JSON). */
export interface ProviderAnswer {
  readonly status: number;
  readonly body: string;
}

export type ProviderBehaviour = (request: IncomingMessage) => ProviderAnswer;

export const json = (status: number, value: unknown): ProviderAnswer => ({ status, body: JSON.stringify(value) });

/** A healthy OpenAI-compatible provider: the key is valid, every completion says `reply`. */
export const healthy =
  (reply = 'Nice to hear from you.'): ProviderBehaviour =>
  (request) =>
    request.url?.endsWith('/models') ? json(200, modelList()) : json(200, completion(reply));

export interface FakeProvider {
  /** `http://127.0.0.1:port/v1`, for LLM_BASE_URL. */
  readonly baseURL: string;
  /** Requests seen, as `METHOD /path`. */
  readonly calls: string[];
  /** Swappable while running. */
  behaviour: ProviderBehaviour;
}

/**
 * A tiny OpenAI-compatible server on 127.0.0.1, port 0, in the test process:
 * for a service in a child process, which nock cannot reach.
 */
export async function startFakeProvider(t: Test, behaviour: ProviderBehaviour = healthy()): Promise<FakeProvider> {
  const provider: FakeProvider = { baseURL: '', calls: [], behaviour };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    provider.calls.push(`${request.method} ${request.url}`);
    request.resume();
    const answer = provider.behaviour(request);
    response.writeHead(answer.status, { 'content-type': 'application/json' });
    response.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  Object.assign(provider, { baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` });
  return provider;
}
