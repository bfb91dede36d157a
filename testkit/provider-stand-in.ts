// The one stand-in for an OpenAI-compatible provider, for the tests and the bench: it serves the
// models list, JSON completions and event streams, can fail, hang or echo, and records every call.
// In-process it is an injected `fetch` (no network at all); `listen()` serves the same behaviour on
// a loopback port, for a service in a child process (which neither an injected fetch nor nock reaches).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable, pipeline } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { completion, completionStream, modelList } from './provider-wire.js';

/** What the service sends to `POST /chat/completions`, as far as the tests look. */
export interface ChatCompletionBody {
  readonly model: string;
  /** Asked for a streamed reply: a 200 completion then goes out as an event stream, word by word. */
  readonly stream?: boolean;
  readonly messages: readonly { readonly role: string; readonly content: string }[];
  /** Set by the second reader (APPRAISAL=model): it asks for the appraisal's JSON schema. */
  readonly response_format?: unknown;
}

/** One request to the stand-in. */
export interface ProviderRequest {
  readonly method: string;
  /** The provider's host (and port): which provider, when the service has two. */
  readonly host: string;
  /** The path and query, e.g. `/v1/models`. */
  readonly url: string;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** Aborts when the caller gives up (its own abort, or the connection closing). */
  readonly signal: AbortSignal;
}

/** The provider's answer to one request. */
export interface ProviderAnswer {
  readonly status: number;
  /** JSON text, or an event stream as it is written. */
  readonly body: string | ReadableStream<Uint8Array>;
  /** Beside `content-type` (a `retry-after-ms` to make the client's retries quick). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Decides the answer to one request, from the request and its body (a completion's JSON, parsed); may take its time. */
export type ProviderBehaviour = (
  request: ProviderRequest,
  body: ChatCompletionBody | undefined,
) => ProviderAnswer | Promise<ProviderAnswer>;

export const json = (status: number, value: unknown): ProviderAnswer => ({ status, body: JSON.stringify(value) });

/** An event stream as the answer: the given frames, or a stream the test or bench writes on. */
export const eventStream = (body: string | ReadableStream<Uint8Array>): ProviderAnswer => ({
  status: 200,
  body: typeof body === 'string' ? new Response(body).body! : body,
  headers: { 'content-type': 'text/event-stream' },
});

const isModels = (request: ProviderRequest): boolean => request.url.endsWith('/models');

/** Lists the models (the service's default unless given), and answers every completion request with `completions`. */
export const offering =
  (completions: ProviderBehaviour, ...models: string[]): ProviderBehaviour =>
  (request, body) =>
    isModels(request) ? json(200, modelList(...models)) : completions(request, body);

/** A healthy provider: the key is valid, it offers the default model, every completion says `reply`. */
export const healthy = (reply = 'Nice to hear from you.'): ProviderBehaviour => offering(() => json(200, completion(reply)));

/** Every completion repeats the visitor's last message after `prefix`. */
export const echoing = (prefix = 'You said: '): ProviderBehaviour =>
  offering((_request, body) => json(200, completion(`${prefix}${body?.messages.at(-1)?.content}`)));

/** Every completion fails with `status` and an OpenAI-style error `message`. */
export const failing = (status: number, message: string): ProviderBehaviour => offering(() => json(status, { error: { message } }));

/** Never answers a completion: the call ends only when the caller aborts it. */
export const hanging = (): ProviderBehaviour => offering(() => new Promise<never>(() => undefined));

/** A completion's reply text, to stream it; undefined when the answer is not a completion (it goes out as is). */
function completionContent(body: string): string | undefined {
  try {
    const content = (JSON.parse(body) as { choices?: { message?: { content?: unknown } }[] }).choices?.[0]?.message?.content;
    return typeof content === 'string' ? content : undefined;
  } catch {
    return undefined;
  }
}

export interface ProviderStandIn {
  /** The stand-in as the service's transport, in this process. */
  readonly fetch: typeof globalThis.fetch;
  /** Requests seen, as `METHOD /path`. */
  readonly calls: string[];
  /** The body of every chat completion request, in arrival order: the prompts the service sent. */
  readonly prompts: ChatCompletionBody[];
  /** Swappable while running. */
  behaviour: ProviderBehaviour;
  /** Whether `calls` and `prompts` are kept. */
  readonly record: boolean;
  /** Serves the stand-in on 127.0.0.1 (port 0 unless given): resolves with `http://127.0.0.1:port`. */
  listen(port?: number): Promise<string>;
  /** Stops serving (connections included); nothing to do for the in-process fetch. */
  close(): Promise<void>;
}

/**
 * A stand-in provider answering with `behaviour` (by default a healthy one). `record: false` keeps
 * no calls nor prompts, for a stand-in under load for minutes (the bench's).
 */
export function providerStandIn(behaviour: ProviderBehaviour = healthy(), { record = true } = {}): ProviderStandIn {
  const servers: ReturnType<typeof createServer>[] = [];
  const stand: ProviderStandIn = {
    record,
    calls: [],
    prompts: [],
    behaviour,
    fetch: async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const method = init?.method ?? 'GET';
      const headers = Object.fromEntries(new Headers(init?.headers).entries());
      const signal = init?.signal ?? new AbortController().signal;
      const answer = await untilAborted(
        answerTo(
          stand,
          { method, host: url.host, url: url.pathname + url.search, headers, signal },
          typeof init?.body === 'string' ? init.body : '',
        ),
        signal,
      );
      return new Response(answer.body, { status: answer.status, headers: { 'content-type': 'application/json', ...answer.headers } });
    },
    listen: async (port = 0) => {
      const server = createServer((request, response) => void serve(stand, request, response));
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    close: async () => {
      await Promise.all(
        servers.splice(0).map((server) => {
          server.closeAllConnections();
          return new Promise<void>((resolve) => server.close(() => resolve()));
        }),
      );
    },
  };
  return stand;
}

/** Records the request, asks the behaviour, and streams a completion when one was asked for. */
async function answerTo(stand: ProviderStandIn, request: ProviderRequest, text: string): Promise<ProviderAnswer> {
  const body = request.method === 'POST' && text !== '' ? (JSON.parse(text) as ChatCompletionBody) : undefined;
  if (stand.record) {
    stand.calls.push(`${request.method} ${request.url}`);
    if (body) stand.prompts.push(body);
  }
  const answer = await stand.behaviour(request, body);
  const content = body?.stream && answer.status === 200 && typeof answer.body === 'string' ? completionContent(answer.body) : undefined;
  if (content === undefined) return answer;
  const streamed = eventStream(completionStream(...content.split(/(?<= )/)));
  return { ...streamed, headers: { ...streamed.headers, ...answer.headers } };
}

/** The answer, or an AbortError once the caller aborts first (as a real fetch rejects). */
function untilAborted<T>(answer: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason ?? new DOMException('This operation was aborted', 'AbortError'));
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    answer.then(resolve, reject);
  });
}

/** The stand-in over HTTP: the same answers, written to the socket as they come. */
async function serve(stand: ProviderStandIn, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const closed = new AbortController();
  response.once('close', () => closed.abort());
  const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, [value].flat().join(', ')]));
  const answer = await answerTo(
    stand,
    { method: request.method ?? 'GET', host: request.headers.host ?? '', url: request.url ?? '/', headers, signal: closed.signal },
    Buffer.concat(chunks).toString('utf8'),
  );
  if (response.destroyed) return;
  response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
  if (typeof answer.body === 'string') response.end(answer.body);
  // A caller that goes away (a killed service) ends the stream with an error: it is nobody's to handle.
  else pipeline(Readable.fromWeb(answer.body as NodeReadableStream<Uint8Array>), response, () => undefined);
}

/** A stand-in served on a loopback port; its `baseURL` (`…/v1`) is for LLM_BASE_URL. */
export type ListeningProvider = ProviderStandIn & { readonly baseURL: string };

/** The stand-in on a loopback port for as long as the test runs. */
export async function listeningProvider(
  t: { teardown(fn: () => unknown): void },
  behaviour?: ProviderBehaviour,
): Promise<ListeningProvider> {
  const stand = providerStandIn(behaviour);
  const url = await stand.listen();
  t.teardown(() => stand.close());
  return Object.assign(stand, { baseURL: `${url}/v1` });
}
