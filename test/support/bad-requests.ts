import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PUBLIC_DIR } from '../../src/http/page-renderer.js';

/** One HTTP request as raw as both `app.inject` and node:http can send it. */
export interface RawRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly payload?: string | Uint8Array;
}

/** The GET endpoints of docs/specification.md#endpoints, all 200 once the system is ready. */
export const GET_ROUTES = ['/', '/error', '/health', '/api/avatar', '/api/is_initialized', '/status', '/api/availability'];

/** The statuses docs/specification.md and docs/chat-api.md give `POST /api/chat` for anything but a provider failure. */
export const CHAT_STATUSES = [200, 400, 413, 415];

/**
 * What may answer a request no route takes: not found, or a URL, framing or
 * body fastify cannot read (it reads the body before it looks for a route).
 */
export const NO_ROUTE_STATUSES = [400, 404, 413, 415];

/** The page's assets, by name: the only files a 200 under /assets/ may carry. */
export const ASSETS = new Map(
  readdirSync(join(PUBLIC_DIR, 'assets')).map((name) => [name, readFileSync(join(PUBLIC_DIR, 'assets', name))] as const),
);

const TRAVERSALS = [
  '/assets/../package.json',
  '/assets/../../package.json',
  '/assets/..%2f..%2fpackage.json',
  '/assets/%2e%2e/%2e%2e/package.json',
  '/assets/%2e%2e%2f%2e%2e%2fsrc%2findex.ts',
  '/assets/%252e%252e/%252e%252epackage.json',
  '/assets/....//....//package.json',
  '/assets/..%5c..%5cpackage.json',
  '/assets/%c0%ae%c0%ae/%c0%ae%c0%ae/package.json',
  '/assets/app.js%00.html',
  '/assets/%00',
  '/assets/.%2e/.%2e/.env',
  '/assets//etc/passwd',
  '/assets/../../../../../../etc/passwd',
  '/../../../etc/passwd',
  '/%2e%2e/%2e%2e/etc/passwd',
  '/assets/',
  '/assets',
  '/assets/.',
  '/assets/index.html',
  '/assets/../index.html',
  '/assets/../error.html',
];

const KNOWN = [...GET_ROUTES, '/api/chat', ...[...ASSETS.keys()].map((name) => `/assets/${name}`)];

/** Known paths, their near misses, traversal attempts and random paths, sometimes with a query. */
export const paths: fc.Arbitrary<string> = fc
  .tuple(
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...KNOWN) },
      fc.constantFrom(...KNOWN).map((path) => `${path}/`),
      fc.constantFrom(...KNOWN).map((path) => path.toUpperCase()),
      fc.constantFrom(...KNOWN).map((path) => `/${path}`),
      { weight: 3, arbitrary: fc.constantFrom(...TRAVERSALS) },
      fc.webPath().map((path) => (path.startsWith('/') ? path : `/${path}`)),
      fc.string({ maxLength: 40 }).map((text) => `/${encodeURIComponent(text)}`),
      fc.string({ maxLength: 40 }).map((text) => `/assets/${encodeURIComponent(text)}`),
    ),
    fc.option(fc.webQueryParameters(), { nil: undefined }),
  )
  .map(([path, query]) => (query === undefined ? path : `${path}?${query}`));

export const methods = fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS');

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/vnd.api+json',
  'APPLICATION/JSON',
  'application/jsonx',
  'text/json',
  'text/plain',
  'text/html',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/octet-stream',
  '',
  ';',
  'application/json; charset=utf-16',
];

export const contentTypes = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...CONTENT_TYPES) }, fc.stringMatching(/^[\x20-\x7e]{0,40}$/));

/** Header names a client may set freely: framing headers are the client's business. */
const headerNames = fc
  .stringMatching(/^[a-z][a-z0-9-]{0,24}$/)
  .filter((name) => !['host', 'content-length', 'transfer-encoding', 'connection', 'content-type', 'expect', 'upgrade'].includes(name));

/** Random headers, sometimes one big one: well within node's 16 KiB header limit, or well beyond it. */
export const headers = (contentType: fc.Arbitrary<string | undefined>): fc.Arbitrary<Record<string, string>> =>
  fc
    .tuple(
      fc.dictionary(headerNames, fc.stringMatching(/^[\x21-\x7e][\x20-\x7e]{0,60}$/), { maxKeys: 6 }),
      contentType,
      fc.option(fc.oneof(fc.integer({ min: 1_000, max: 8_000 }), fc.integer({ min: 20_000, max: 40_000 })), { nil: undefined, freq: 8 }),
    )
    .map(([random, type, huge]) => ({
      ...random,
      ...(type === undefined ? {} : { 'content-type': type }),
      ...(huge === undefined ? {} : { 'x-huge': 'h'.repeat(huge) }),
    }));

/** Every JSON type but a string, and strings that are not a message. */
export const wrongMessages = (maxLength: number): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.string(), { maxLength: 3 }),
    fc.object({ maxDepth: 2 }),
    fc.constantFrom('', ' ', '\t\n', '\u00a0\u2003\u3000', '\r\n\r\n'),
    fc.string({ minLength: maxLength + 1, maxLength: maxLength + 5 }),
    fc.string({ unit: 'grapheme', minLength: maxLength + 1, maxLength: maxLength + 3 }),
    fc.integer({ min: maxLength + 1, max: maxLength * 50 }).map((length) => 'x'.repeat(length)),
  );

/** Messages around the limit, unicode included: some are accepted, some are too long. */
export const edgeMessages = (maxLength: number): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ unit: 'binary', minLength: maxLength - 2, maxLength: maxLength + 2 }),
    fc.string({ unit: 'grapheme-composite', minLength: 1, maxLength: 4 }),
    fc.string({ minLength: 1, maxLength: 8 }).map((text) => ` ${text}\u200b `),
  );

/** Bodies of every kind: none, JSON of random shapes, wrong messages, malformed JSON, bytes, oversized. */
export const payloads = (maxLength: number, bodyLimit: number): fc.Arbitrary<string | Uint8Array | undefined> =>
  fc.oneof(
    fc.constant(undefined),
    fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
    { weight: 3, arbitrary: wrongMessages(maxLength).map((message) => JSON.stringify({ message })) },
    edgeMessages(maxLength).map((message) => JSON.stringify({ message })),
    fc.record({ message: fc.string({ maxLength: 10 }), extra: fc.jsonValue({ maxDepth: 1 }) }).map((body) => JSON.stringify(body)),
    fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify({ message: 'hi', nested: value }).slice(0, -2)),
    fc.string({ maxLength: 80 }),
    fc.uint8Array({ maxLength: 200 }),
    fc.integer({ min: bodyLimit - 10, max: bodyLimit * 3 }).map((length) => JSON.stringify({ message: 'y'.repeat(length) })),
    fc.constantFrom(
      '{',
      '{"message":',
      '{"message":"hi"',
      '[',
      '"message"',
      'null',
      '{"message":"a"}{"message":"b"}',
      '\u0000',
      '{"__proto__":{"message":"x"}}',
      '{"constructor":{"prototype":{"message":"x"}}}',
    ),
  );

export const requests = (maxLength: number, bodyLimit: number): fc.Arbitrary<RawRequest> =>
  fc.record({
    method: methods,
    url: paths,
    headers: headers(fc.option(contentTypes, { nil: undefined })),
    payload: payloads(maxLength, bodyLimit),
  });

/** Chat requests only: the endpoint's own bad input, in depth. */
export const chatRequests = (maxLength: number, bodyLimit: number): fc.Arbitrary<RawRequest> =>
  fc.record({
    method: fc.constant('POST'),
    url: fc.constantFrom('/api/chat', '/api/chat?message=hi'),
    headers: headers(
      fc.oneof(
        fc.constant('application/json'),
        contentTypes.map((type): string | undefined => type),
        fc.constant(undefined),
      ),
    ),
    payload: payloads(maxLength, bodyLimit),
  });

/** The statuses the documentation allows for this request, the system being ready. */
export function allowedStatuses({ method, url }: RawRequest): number[] {
  const path = url.split('?')[0]!;
  const read = method === 'GET' || method === 'HEAD';
  if (read && GET_ROUTES.includes(path)) return [200];
  if (method === 'POST' && path === '/api/chat') return CHAT_STATUSES;
  if (read && path.startsWith('/assets/')) return [200, 403, ...NO_ROUTE_STATUSES];
  return NO_ROUTE_STATUSES;
}

/** Whether a request's headers pass node's default 16 KiB limit (answered 431 by node itself). */
export function hasHugeHeaders({ headers }: RawRequest): boolean {
  return Object.entries(headers).reduce((size, [name, value]) => size + name.length + value.length + 4, 0) > 16_000;
}
