import { PassThrough, Readable } from 'node:stream';
import type { Test } from 'tap';
import { loadChatConfig } from '../../src/config/chat-config.js';
import { buildApp } from '../../src/http/app.js';
import { fixedClock } from '../../src/runtime/clock.js';
import { createLogger } from '../../src/runtime/logger.js';
import { BASE_URL, START, harness, modelList } from './chat-system-harness.js';
import { openEmbeddedStore } from '../../src/embedded/embedded-store.js';
import { join } from 'node:path';
import { CookieJar } from './cookie-jar.js';

export interface ServedOptions {
  readonly env?: Record<string, string>;
  /** Whether the system starts (default true); a test of the not-ready state leaves it. */
  readonly start?: boolean;
  /** The provider's transport; without it calls go to BASE_URL, where the test mocks them with nock. */
  readonly fetch?: typeof globalThis.fetch;
  /** The event streams' heartbeat period (default the app's 15 s). */
  readonly heartbeatMs?: number;
  /** How often the page polls /api/avatar (default 1 s, as docs/specification.md#the-page says). */
  readonly pollIntervalMs?: number;
  /** The dialogue's retries (default the harness's 0). */
  readonly dialogueRetries?: number;
  /** Keep the mood and conversations in the embedded store, as `hub serve` alone does (default: in process). */
  readonly embedded?: boolean;
}

/** The real app over the real actor system, listening on 127.0.0.1, with one visitor. */
export async function served(
  t: Test,
  { env = {}, start = true, fetch, heartbeatMs, pollIntervalMs, dialogueRetries, embedded = false }: ServedOptions = {},
) {
  const settings = { LLM_API_KEY: 'sk-test-stream', LLM_BASE_URL: BASE_URL, ...env };
  const dir = t.testdir();
  const store = embedded
    ? openEmbeddedStore(join(dir, 'emotions.json'), { maxSessions: 100, idleMs: 3_600_000, clock: fixedClock(START) })
    : undefined;
  const h = harness(t, settings, dir, {
    ...(fetch ? { fetch } : {}),
    ...(dialogueRetries === undefined ? {} : { dialogueRetries }),
    ...(store ? { ledger: store.ledger, conversations: store.conversations } : {}),
  });
  // The store closes once the system has stopped (its last commit is in by then).
  if (store)
    t.teardown(async () => {
      await h.system.stop();
      await store.close();
    });
  const app = await buildApp({
    bus: h.bus,
    clock: fixedClock(START),
    logger: createLogger({ debug: false, destination: { write: () => undefined } }),
    config: loadChatConfig(settings),
    ...(heartbeatMs === undefined ? {} : { heartbeatMs }),
    ...(pollIntervalMs === undefined ? {} : { pollIntervalMs }),
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(() => app.close());
  if (start) {
    h.system.start();
    t.equal(await h.system.settled(), 'ready');
  }
  return { ...h, app, address, visitor: new CookieJar(address) };
}

/**
 * A provider as an injected fetch whose completion streams what the test writes, piece by piece;
 * `aborted` resolves when the service aborts the call; `completions()` counts the calls made. (Not nock: nock, and its interception of the
 * test's own fetch, hand a streamed body over only once it has ended.)
 */
export function heldProvider() {
  const body = new PassThrough();
  let abort: () => void = () => undefined;
  const aborted = new Promise<void>((resolve) => (abort = resolve));
  let completions = 0;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    if (String(input instanceof Request ? input.url : input).endsWith('/models')) return Response.json(modelList());
    completions += 1;
    init?.signal?.addEventListener('abort', () => {
      abort();
      body.destroy();
    });
    return new Response(Readable.toWeb(body) as ReadableStream, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
  return { body, aborted, fetch, completions: () => completions };
}

/** `POST /api/chat` asking for a stream. */
export function streamedChat(visitor: CookieJar, message: string, signal?: AbortSignal) {
  return visitor.fetch('/api/chat', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ message }),
    signal,
  });
}

/**
 * A provider as an injected fetch where every completion call streams what the test writes to its
 * own body (`calls[i].body`), with the messages it was sent (`calls[i].messages`).
 */
export function heldCalls() {
  const calls: { readonly body: PassThrough; readonly messages: { role: string; content: string }[] }[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    if (String(input instanceof Request ? input.url : input).endsWith('/models')) return Response.json(modelList());
    const body = new PassThrough();
    const request = JSON.parse(String(init?.body)) as { messages: { role: string; content: string }[] };
    calls.push({ body, messages: request.messages });
    init?.signal?.addEventListener('abort', () => body.destroy());
    return new Response(Readable.toWeb(body) as ReadableStream, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
  return { calls, fetch };
}

/** A streamed `POST` to one of the chat routes (`/api/chat/edit`, `/api/chat/regenerate`). */
export function streamedTo(visitor: CookieJar, path: string, body: object = {}, signal?: AbortSignal) {
  return visitor.fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(body),
    signal,
  });
}
