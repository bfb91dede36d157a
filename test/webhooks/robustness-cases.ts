// Generated requests for the receiving server's robustness tests, each with what the server must
// answer. Every part (method, path, secret, content type, body) knows its own verdict, so the
// expected status follows from the documented order of checks rather than from the server's code.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { WebhookHandler } from '../../src/webhooks/handler.js';
import { fixture, type FixtureName } from './helpers.js';

export const SECRET = 'wh-secret-7f3a91c2';
/** The two handlers' route names: one named after its function, one given explicitly. */
export const NAMES = ['on_commit', 'discussions'] as const;
export type Name = (typeof NAMES)[number];

export interface Part<T> {
  readonly value: T;
}
export interface SecretPart extends Part<string | undefined> {
  readonly verdict: 'ok' | 'missing' | 'wrong';
}
export interface PathPart extends Part<string> {
  /** Under `/webhooks`: a delivery route, where the secret is checked first. */
  readonly delivery: boolean;
  /** The registered route it reaches; undefined for an unknown name or another path. */
  readonly name: Name | undefined;
  /** A percent-escape the router cannot decode. */
  readonly badUrl: boolean;
}
export interface TypePart extends Part<string | undefined> {
  readonly json: boolean;
}
export type BodyKind = 'valid' | 'oversize' | 'malformed' | 'not-payload' | 'text';
export interface BodyPart extends Part<string | Uint8Array> {
  readonly kind: BodyKind;
}

export interface GeneratedRequest {
  readonly method: string;
  readonly path: PathPart;
  readonly secret: SecretPart;
  readonly type: TypePart;
  readonly body: BodyPart;
  readonly extraHeaders: Record<string, string>;
}

/** What a transport (inject or real HTTP) gives back. */
export interface Answer {
  readonly status: number;
  readonly contentType: string | undefined;
  readonly text: string;
}

export interface Transport {
  readonly http: boolean;
}

const FIXTURES: FixtureName[] = ['repo-content-update', 'discussion-created', 'comment-created', 'repo-config-update'];

// ---- secrets ---------------------------------------------------------------------------------------

/**
 * Header values a real HTTP client can send: Latin-1 without control characters, and without the
 * surrounding whitespace HTTP strips (a secret plus a trailing space *is* the secret on the wire).
 */
const headerSafe = (s: string): boolean => s === s.trim() && /^[\x20-\x7e\xa0-\xff]*$/.test(s);

export function secretArb(transport: Transport): fc.Arbitrary<SecretPart> {
  const any = transport.http
    ? fc.string({
        unit: fc
          .integer({ min: 0x20, max: 0xff })
          .filter((c) => c < 0x7f || c >= 0xa0)
          .map((c) => String.fromCharCode(c)),
      })
    : fc.string({ unit: 'binary' });
  const affix = any.filter((s) => s.trim() !== '');
  const wrong = fc.oneof(
    any,
    fc.constant(''),
    fc.string({ minLength: 1000, maxLength: 5000 }),
    fc.tuple(affix, fc.boolean()).map(([extra, before]) => (before ? extra + SECRET : SECRET + extra)),
    fc.constantFrom(SECRET.toUpperCase(), SECRET.slice(0, -1), `${SECRET.slice(0, -1)}3`, `${SECRET}, ${SECRET}`, 'sécret-non-ascii'),
  );
  return fc.oneof(
    { weight: 5, arbitrary: fc.constant<SecretPart>({ value: SECRET, verdict: 'ok' }) },
    { weight: 1, arbitrary: fc.constant<SecretPart>({ value: undefined, verdict: 'missing' }) },
    {
      weight: 3,
      arbitrary: wrong
        .filter((s) => s !== SECRET && (!transport.http || headerSafe(s)))
        .map((value): SecretPart => ({ value, verdict: 'wrong' })),
    },
  );
}

// ---- paths -----------------------------------------------------------------------------------------

/** A path the WHATWG URL parser leaves alone (no `.`/`..` segment to resolve), as real clients send it. */
function kept(path: string): boolean {
  if (!path.startsWith('/') || path.startsWith('//')) return false;
  try {
    return new URL(path, 'http://h').pathname === path.split('?', 1)[0];
  } catch {
    return false;
  }
}

export function pathArb(): fc.Arbitrary<PathPart> {
  const named = (path: (name: Name) => string): fc.Arbitrary<PathPart> =>
    fc.constantFrom(...NAMES).map((name) => ({ value: path(name), delivery: true, name, badUrl: false }));
  const query = fc.webQueryParameters().map((q) => (q === '' ? '' : `?${q}`));
  return fc.oneof(
    { weight: 12, arbitrary: named((name) => `/webhooks/${name}`) },
    named((name) => `/webhooks/${name}/`),
    fc
      .tuple(
        named((name) => `/webhooks/${name}`),
        query,
      )
      .map(([path, q]) => ({ ...path, value: path.value + q })),
    // An unknown name under the prefix: random segments, encoded so the URL stays a URL.
    fc
      .array(fc.string({ unit: 'binary', minLength: 1 }), { minLength: 1, maxLength: 4 })
      .map((segments) => segments.map(encodeURIComponent).join('/'))
      .filter(
        (rest) =>
          kept(`/webhooks/${rest}`) &&
          !(NAMES as readonly string[]).includes(decodeURIComponent(rest).replace(/^\/+|\/+$/g, '')) &&
          decodeURIComponent(rest).replace(/\//g, '') !== '',
      )
      .map((rest) => ({ value: `/webhooks/${rest}`, delivery: true, name: undefined, badUrl: false })),
    fc.constant({ value: '/webhooks', delivery: true, name: undefined, badUrl: false }),
    // Escapes that decode to no valid UTF-8, or are no escape at all.
    fc
      .tuple(fc.constantFrom('%E0%A4%A', '%zz', '%', '%C0%80', '%ED%A0%80'), fc.boolean())
      .map(([bad, delivery]) => ({ value: delivery ? `/webhooks/${bad}` : `/${bad}`, delivery, name: undefined, badUrl: true })),
    fc
      .constantFrom(
        '/',
        '/webhook/on_commit',
        '/WEBHOOKS/on_commit',
        '/webhooksx',
        '/api/webhooks/on_commit',
        '/favicon.ico',
        '/index.html',
      )
      .map((value) => ({ value, delivery: false, name: undefined, badUrl: false })),
    fc
      .webPath()
      .filter((p) => p !== '' && p !== '/' && p !== '/webhooks' && !p.startsWith('/webhooks/') && kept(p))
      .map((value) => ({ value, delivery: false, name: undefined, badUrl: false })),
  );
}

// ---- content types ---------------------------------------------------------------------------------

export function typeArb(): fc.Arbitrary<TypePart> {
  return fc.oneof(
    {
      weight: 10,
      arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8').map((value) => ({ value, json: true })),
    },
    fc.constant({ value: undefined, json: false }),
    fc
      .constantFrom(
        'text/plain',
        'text/html',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/octet-stream',
        'application/vnd.api+json',
        'json',
        '',
      )
      .map((value) => ({ value, json: false })),
    fc
      .stringMatching(/^[a-z]{1,12}\/[a-z0-9.+-]{1,20}$/)
      .filter((t) => t !== 'application/json')
      .map((value) => ({ value, json: false })),
  );
}

// ---- bodies ----------------------------------------------------------------------------------------

type Json = Record<string, unknown>;

/** Required fields of a Hub payload and values that are certainly not of their type. */
const STRING = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 2 }), fc.constant({}));
const REQUIRED: [string[], fc.Arbitrary<unknown>][] = [
  [['event'], fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.constant([]))],
  [
    ['event', 'action'],
    fc.oneof(
      fc.string().filter((s) => !['create', 'delete', 'move', 'update'].includes(s)),
      STRING,
    ),
  ],
  [['event', 'scope'], STRING],
  [['repo'], fc.oneof(fc.string(), fc.constant(null), fc.constant([]))],
  [
    ['repo', 'type'],
    fc.oneof(
      fc.string().filter((s) => !['model', 'dataset', 'space'].includes(s)),
      STRING,
    ),
  ],
  [['repo', 'name'], STRING],
  [['repo', 'id'], STRING],
  [['repo', 'private'], fc.oneof(fc.string(), fc.integer(), fc.constant(null))],
  [['repo', 'owner', 'id'], STRING],
  [['repo', 'url', 'web'], STRING],
  [['webhook'], fc.oneof(fc.string(), fc.constant(null), fc.constant([]))],
  [['webhook', 'id'], STRING],
  [
    ['webhook', 'version'],
    fc.oneof(
      fc.integer().filter((n) => n !== 3),
      fc.constant('3'),
      fc.constant(null),
    ),
  ],
];

function setPath(target: Json, path: string[], value: unknown, remove: boolean): Json {
  const parent = path.slice(0, -1).reduce<Json>((node, key) => node[key] as Json, target);
  const key = path[path.length - 1]!;
  if (remove) delete parent[key];
  else parent[key] = value;
  return target;
}

/**
 * JSON text with no `__proto__` or `constructor` key, which the server refuses as malformed (400,
 * prototype poisoning). fast-check's strings favour exactly such names, nested keys included: a
 * `valid` body once carried `{"x_…":{"__proto__":…}}` and was rightly answered 400.
 */
const poisonFree = (text: string): boolean => !/"(?:__proto__|constructor)":/.test(text);

const fixtureArb = fc.constantFrom(...FIXTURES).map((name) => fixture(name) as unknown as Json);
/** Keys the Hub may add later: never one of the payload's own. */
const extraKeys = fc.dictionary(
  fc.string({ minLength: 1 }).map((k) => `x_${k}`),
  fc.jsonValue({ maxDepth: 3 }).filter((value) => poisonFree(JSON.stringify(value))),
  { maxKeys: 4 },
);

function nested(depth: number, array: boolean): string {
  return array ? '['.repeat(depth) + ']'.repeat(depth) : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** Valid text of exactly `size` bytes: a payload padded with an extra key. */
function paddedPayload(payload: Json, size: number): string {
  const base = JSON.stringify({ ...payload, x_pad: '' });
  return JSON.stringify({ ...payload, x_pad: 'p'.repeat(Math.max(0, size - Buffer.byteLength(base))) });
}

export function bodyArb(bodyLimit: number): fc.Arbitrary<BodyPart> {
  const valid = fc.oneof(
    fc.tuple(fixtureArb, extraKeys).map(([payload, extra]) => JSON.stringify({ ...payload, ...extra })),
    fc
      .tuple(fixtureArb, fc.integer({ min: 1, max: 1000 }), fc.boolean())
      .map(([payload, depth, array]) =>
        JSON.stringify({ ...payload, x_deep: 0 }).replace('"x_deep":0', `"x_deep":${nested(depth, array)}`),
      ),
    fc.tuple(fixtureArb, fc.integer({ min: 0, max: 64 })).map(([payload, under]) => paddedPayload(payload, bodyLimit - under)),
  );
  const mutated = fc.tuple(fixtureArb, fc.constantFrom(...REQUIRED.keys()), fc.boolean()).chain(([payload, index, remove]) => {
    const [path, wrong] = REQUIRED[index]!;
    return wrong.map((value) => JSON.stringify(setPath(payload, path, value, remove)));
  });
  const notPayload = fc.oneof(
    mutated,
    fc
      .jsonValue()
      .map((v) => JSON.stringify(v))
      .filter(poisonFree),
    // As deep as the limit allows: `{"a":` is 5 bytes a level, `[]` 2.
    fc
      .tuple(fc.integer({ min: 1, max: Math.floor((bodyLimit - 2) / 6) }), fc.boolean())
      .map(([depth, array]) => nested(array ? depth * 2 : depth, array)),
  );
  const malformed = fc.oneof(
    fc.constant(''),
    fc.constantFrom(
      '{',
      '{"event":',
      '[1,]',
      "{'a':1}",
      'undefined',
      'NaN',
      '{"__proto__":{"polluted":true}}',
      '{"constructor":{"prototype":{"x":1}}}',
    ),
    fc.jsonValue().map((v) => `${JSON.stringify(v)},`),
  );
  const oversize = fc
    .tuple(fc.integer({ min: 1, max: 4096 }), fc.boolean())
    .map(([over, json]) =>
      json ? paddedPayload(fixture('repo-content-update') as unknown as Json, bodyLimit + over) : 'x'.repeat(bodyLimit + over),
    );
  const text = fc.oneof(fc.string({ unit: 'binary', minLength: 1 }), fc.uint8Array({ minLength: 1, maxLength: 2048 }));
  return fc.oneof(
    { weight: 4, arbitrary: valid.map((value) => ({ value, kind: 'valid' as const })) },
    { weight: 4, arbitrary: notPayload.map((value) => ({ value, kind: 'not-payload' as const })) },
    { weight: 2, arbitrary: malformed.map((value) => ({ value, kind: 'malformed' as const })) },
    { weight: 1, arbitrary: oversize.map((value) => ({ value, kind: 'oversize' as const })) },
    { weight: 2, arbitrary: text.map((value) => ({ value, kind: 'text' as const })) },
  );
}

// ---- whole requests --------------------------------------------------------------------------------

const HTTP_METHODS = ['GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'PROPFIND', 'SEARCH'];

export function requestArb(transport: Transport, bodyLimit: number): fc.Arbitrary<GeneratedRequest> {
  return fc.record({
    method: fc.oneof({ weight: 15, arbitrary: fc.constant('POST') }, fc.constantFrom(...HTTP_METHODS)),
    path: pathArb(),
    secret: secretArb(transport),
    type: typeArb(),
    body: bodyArb(bodyLimit),
    extraHeaders: fc.dictionary(
      fc.stringMatching(/^x-[a-z0-9-]{1,16}$/).filter((name) => name !== 'x-webhook-secret'),
      fc.stringMatching(/^[\x21-\x7e]{0,40}$/),
      { maxKeys: 3 },
    ),
  });
}

/** The request's headers as a client sends them. */
export function headersOf(request: GeneratedRequest): Record<string, string> {
  return {
    ...request.extraHeaders,
    ...(request.type.value !== undefined && { 'content-type': request.type.value }),
    ...(request.secret.value !== undefined && { 'x-webhook-secret': request.secret.value }),
  };
}

/** Whether a body goes out: GET and HEAD cannot carry one. */
export function sendsBody(request: GeneratedRequest): boolean {
  return request.method !== 'GET' && request.method !== 'HEAD';
}

/** The statuses the documented order of checks allows for this request. */
export function expectedStatuses(request: GeneratedRequest): number[] {
  const { method, path, secret, type, body } = request;
  const post = method === 'POST';
  if (path.badUrl && !(post && path.delivery)) return [400];
  if (!post || !path.delivery) return path.value === '/' && (method === 'GET' || method === 'HEAD') ? [200] : [404];
  if (secret.verdict === 'missing') return [401];
  if (secret.verdict === 'wrong') return [403];
  if (path.badUrl) return [400];
  if (path.name === undefined) return [404];
  if (!type.json) return [415];
  switch (body.kind) {
    case 'valid':
      return [200];
    case 'oversize':
      return [413];
    case 'malformed':
      return [400];
    case 'not-payload':
      return [422];
    case 'text':
      return [400, 422];
  }
}

/** The one handler the request must reach, if any. */
export function expectedHandler(request: GeneratedRequest): Name | undefined {
  return expectedStatuses(request)[0] === 200 && request.method === 'POST' ? request.path.name : undefined;
}

/** What every answer must satisfy, whatever the request; throws (for fast-check to shrink) when not. */
export function checkAnswer(request: GeneratedRequest, answer: Answer): void {
  const expected = expectedStatuses(request);
  const seen = `${describe(request)} → ${answer.status} ${answer.text.slice(0, 200)}`;
  assert.ok(expected.includes(answer.status), `expected ${expected.join(' or ')}: ${seen}`);
  if (answer.status >= 400 && request.method !== 'HEAD') {
    assert.match(answer.contentType ?? '', /^application\/json/, `an error is JSON: ${seen}`);
    const body = JSON.parse(answer.text) as { error?: unknown };
    assert.ok(typeof body.error === 'string' && body.error !== '', `an error string: ${seen}`);
  }
}

export function describe(request: GeneratedRequest): string {
  const size = typeof request.body.value === 'string' ? request.body.value.length : request.body.value.byteLength;
  return `${request.method} ${request.path.value.slice(0, 80)} secret=${request.secret.verdict} type=${String(request.type.value)} body=${request.body.kind}(${size})`;
}

/** A valid delivery, to check the server still serves one after the storm. */
export function validDelivery(): { path: string; headers: Record<string, string>; body: string } {
  return {
    path: '/webhooks/on_commit',
    headers: { 'content-type': 'application/json', 'x-webhook-secret': SECRET },
    body: JSON.stringify(fixture('repo-content-update')),
  };
}

/** The two handlers, counting their calls; `register` takes `addWebhook`'s two forms. */
export function countingHandlers(register: (explicitName: string | undefined, handler: WebhookHandler) => void): Record<Name, number> {
  const calls: Record<Name, number> = { on_commit: 0, discussions: 0 };
  register(undefined, function on_commit(payload) {
    calls.on_commit += 1;
    return { handled: 'on_commit', repo: payload.repo.name };
  });
  register('/discussions', () => {
    calls.discussions += 1;
  });
  return calls;
}

/** Sends `request` and checks the answer and which handler ran; `send` is the transport. */
export async function deliverAndCheck(
  request: GeneratedRequest,
  calls: Record<Name, number>,
  send: (request: GeneratedRequest) => Promise<Answer>,
): Promise<Answer> {
  const before = { ...calls };
  const answer = await send(request);
  checkAnswer(request, answer);
  const reached = expectedHandler(request);
  for (const name of NAMES) {
    assert.equal(calls[name] - before[name], name === reached ? 1 : 0, `handler ${name} calls: ${describe(request)} → ${answer.status}`);
  }
  if (reached === 'on_commit')
    assert.deepEqual(JSON.parse(answer.text), {
      handled: 'on_commit',
      repo: (JSON.parse(String(request.body.value)) as { repo: { name: string } }).repo.name,
    });
  if (reached === 'discussions') assert.equal(answer.text, 'null');
  return answer;
}
