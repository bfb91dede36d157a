import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Test } from 'tap';
import { completion, completionStream, modelList } from '../support/chat-system-harness.js';

/** The provider's answer to one request (always JSON). */
export interface ProviderAnswer {
  readonly status: number;
  readonly body: string;
  /** Beside `content-type` (a `retry-after-ms` to make the client's retries quick). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Decides the answer to one request, from the request and its body (a completion's JSON, parsed); may take its time. */
export type ProviderBehaviour = (
  request: IncomingMessage,
  body: ChatCompletionBody | undefined,
) => ProviderAnswer | Promise<ProviderAnswer>;

/** What the service sends to `POST /chat/completions`, as far as the tests look. */
export interface ChatCompletionBody {
  readonly model: string;
  /** Asked for a streamed reply: a 200 completion then goes out as an event stream, word by word. */
  readonly stream?: boolean;
  readonly messages: readonly { readonly role: string; readonly content: string }[];
}

export const json = (status: number, value: unknown): ProviderAnswer => ({ status, body: JSON.stringify(value) });

/** A healthy OpenAI-compatible provider: the key is valid, it offers the default model, every completion says `reply`. */
export const healthy =
  (reply = 'Nice to hear from you.'): ProviderBehaviour =>
  (request) =>
    request.url?.endsWith('/models') ? json(200, modelList()) : json(200, completion(reply));

/** A completion's reply text, to stream it; undefined when the answer is not a completion (it goes out as is). */
function streamedContent(body: string): string | undefined {
  try {
    const content = (JSON.parse(body) as { choices?: { message?: { content?: unknown } }[] }).choices?.[0]?.message?.content;
    return typeof content === 'string' ? content : undefined;
  } catch {
    return undefined;
  }
}

export interface FakeProvider {
  /** `http://127.0.0.1:port/v1`, for LLM_BASE_URL. */
  readonly baseURL: string;
  /** Requests seen, as `METHOD /path`. */
  readonly calls: string[];
  /** The body of every chat completion request, in arrival order: the prompts the service sent. */
  readonly prompts: ChatCompletionBody[];
  /** Swappable while running. */
  behaviour: ProviderBehaviour;
}

/**
 * A tiny OpenAI-compatible server on 127.0.0.1, port 0, in the test process:
 * for a service in a child process, which nock cannot reach, and for tests that
 * read the prompts the service sent.
 */
export async function startFakeProvider(t: Test, behaviour: ProviderBehaviour = healthy()): Promise<FakeProvider> {
  const provider: FakeProvider = { baseURL: '', calls: [], prompts: [], behaviour };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    provider.calls.push(`${request.method} ${request.url}`);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = request.method === 'POST' && text !== '' ? (JSON.parse(text) as ChatCompletionBody) : undefined;
      if (body) provider.prompts.push(body);
      const answer = await provider.behaviour(request, body);
      if (response.destroyed) return;
      const content = body?.stream && answer.status === 200 ? streamedContent(answer.body) : undefined;
      if (content !== undefined) {
        response.writeHead(200, { 'content-type': 'text/event-stream', ...answer.headers });
        response.end(completionStream(...content.split(/(?<= )/)));
        return;
      }
      response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      response.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  Object.assign(provider, { baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` });
  return provider;
}
