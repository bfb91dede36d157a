// The client against a faulty hub: every fault is a typed error with a clear message (status and
// request id when there is one, never the token), and no id can leave its path segment.
import fc from 'fast-check';
import nock from 'nock';
import t from 'tap';
import { createWebhook } from '../../src/hub/create-webhook.js';
import { deleteWebhook } from '../../src/hub/delete-webhook.js';
import { disableWebhook } from '../../src/hub/disable-webhook.js';
import { enableWebhook } from '../../src/hub/enable-webhook.js';
import { HubApiError, HubConnectionError, WebhookInputError } from '../../src/hub/errors.js';
import { getWebhook } from '../../src/hub/get-webhook.js';
import type { WatchedItem } from '../../src/hub/types.js';
import { listWebhooks } from '../../src/hub/list-webhooks.js';
import { updateWebhook } from '../../src/hub/update-webhook.js';
import { HUB, hubOptions, TOKEN, urlWebhookCreateBody, urlWebhookJson, useNock } from '../support/hub-fixtures.js';

useNock(t);

const ID = urlWebhookJson.id;
const WATCHED = [...urlWebhookJson.watched] as WatchedItem[];
const ONE = `/api/settings/webhooks/${ID}`;

/** Every hub call, with the route it takes and whether it reads the answer's body. */
const calls = [
  { name: 'list', method: 'GET', path: '/api/settings/webhooks', reads: true, run: () => listWebhooks(hubOptions) },
  { name: 'get', method: 'GET', path: ONE, reads: true, run: () => getWebhook({ ...hubOptions, webhookId: ID }) },
  {
    name: 'create',
    method: 'POST',
    path: '/api/settings/webhooks',
    reads: true,
    run: () => createWebhook({ ...hubOptions, ...urlWebhookCreateBody, watched: WATCHED, domains: ['repo'] }),
  },
  {
    name: 'update',
    method: 'POST',
    path: ONE,
    reads: true,
    run: () => updateWebhook({ ...hubOptions, webhookId: ID, url: 'https://example.com/new', watched: WATCHED }),
  },
  { name: 'enable', method: 'POST', path: `${ONE}/enable`, reads: true, run: () => enableWebhook({ ...hubOptions, webhookId: ID }) },
  { name: 'disable', method: 'POST', path: `${ONE}/disable`, reads: true, run: () => disableWebhook({ ...hubOptions, webhookId: ID }) },
  { name: 'delete', method: 'DELETE', path: ONE, reads: false, run: () => deleteWebhook({ ...hubOptions, webhookId: ID }) },
] as const;

type Call = (typeof calls)[number];
const interceptor = (call: Call) => nock(HUB).intercept(call.path, call.method);

const HTML_PAGE = '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>';

/** Hub answers that are errors, each with what the HubApiError must say. */
const errorAnswers: { what: string; status: number; body: string; headers: Record<string, string>; message: RegExp }[] = [
  {
    what: '500 with an HTML page',
    status: 500,
    body: HTML_PAGE,
    headers: { 'content-type': 'text/html', 'x-request-id': 'req-500' },
    message: /^no message \(HTTP 500 from .*, request id req-500\)$/,
  },
  {
    what: '502 with an HTML page',
    status: 502,
    body: HTML_PAGE,
    headers: { 'content-type': 'text/html' },
    message: /^no message \(HTTP 502 from /,
  },
  {
    what: '503 with plain text',
    status: 503,
    body: 'upstream connect error',
    headers: { 'x-amz-cf-id': 'cf-1' },
    message: /^upstream connect error \(HTTP 503 from .*, request id cf-1\)$/,
  },
  { what: '504 with an empty body', status: 504, body: '', headers: {}, message: /^no message \(HTTP 504 from / },
  {
    what: '429 with Retry-After',
    status: 429,
    body: JSON.stringify({ error: 'You have exceeded our rate limit' }),
    headers: { 'content-type': 'application/json', 'retry-after': '30', 'x-request-id': 'req-429' },
    message: /^You have exceeded our rate limit \(HTTP 429 from .*, request id req-429\)$/,
  },
  {
    what: '401 that echoes the Authorization header',
    status: 401,
    body: JSON.stringify({ error: `Invalid credentials in Authorization header: Bearer ${TOKEN}` }),
    headers: { 'x-error-message': `Bad token ${TOKEN}` },
    message: /^Bad token \[token\]; Invalid credentials in Authorization header: Bearer \[token\] \(HTTP 401 /,
  },
];

/** 200 answers that are not what the route returns. */
const malformedAnswers = [
  { what: 'truncated JSON', body: '{"webhook": {"id": "65', message: /the hub answered with something that is not JSON/ },
  { what: 'an empty body', body: '', message: /the hub answered with something that is not JSON/ },
  { what: 'an HTML page', body: HTML_PAGE, message: /the hub answered with something that is not JSON/ },
  { what: 'JSON null', body: 'null', message: /unexpected answer from the hub: / },
];

/** JSON of the wrong shape, per reading call. */
const wrongShapes: Record<'list' | 'one', { what: string; body: unknown; message: RegExp }[]> = {
  list: [
    {
      what: 'an object, not a list',
      body: { webhooks: [urlWebhookJson] },
      message: /unexpected answer from the hub: the webhook list is not an array/,
    },
    {
      what: 'a list with a webhook whose watched is not a list',
      body: [{ ...urlWebhookJson, watched: 'user:julien-c' }],
      message: /"watched" is not a list of \{type, name\}/,
    },
  ],
  one: [
    { what: 'no "webhook" wrapper', body: urlWebhookJson, message: /unexpected answer from the hub: no "webhook" key in the answer/ },
    {
      what: 'watched not a list',
      body: { webhook: { ...urlWebhookJson, watched: { type: 'user' } } },
      message: /"watched" is not a list of \{type, name\}/,
    },
    { what: 'a webhook without an id', body: { webhook: { ...urlWebhookJson, id: 42 } }, message: /webhook without an "id"/ },
    { what: 'disabled as a string', body: { webhook: { ...urlWebhookJson, disabled: 'false' } }, message: /"disabled" is not a boolean/ },
  ],
};

async function failure(call: Call): Promise<Error> {
  const outcome = await call.run().then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(outcome instanceof Error)) throw new Error(`${call.name} did not fail`);
  return outcome;
}

t.test('hub error statuses: a HubApiError with the status, the hub message, the request id, never the token', async (t) => {
  for (const call of calls) {
    for (const answer of errorAnswers) {
      interceptor(call).reply(answer.status, answer.body, answer.headers);
      const error = await failure(call);
      t.type(error, HubApiError, `${call.name}, ${answer.what}`);
      t.match(
        error,
        { status: answer.status, method: call.method, url: HUB + call.path, message: answer.message },
        `${call.name}, ${answer.what}`,
      );
      t.notOk(error.message.includes(TOKEN) || (error as HubApiError).serverMessage?.includes(TOKEN), 'no token in the error');
      t.notMatch(error.message, /<html|<!DOCTYPE/i, 'no HTML in the message');
    }
  }
});

t.test('a 200 that is not JSON: a HubApiError saying so; delete, which reads nothing, succeeds', async (t) => {
  for (const call of calls) {
    for (const answer of malformedAnswers) {
      interceptor(call).reply(200, answer.body, { 'x-request-id': 'req-bad' });
      if (!call.reads) {
        await t.resolves(call.run(), `${call.name} ignores the body`);
        continue;
      }
      const error = await failure(call);
      t.type(error, HubApiError, `${call.name}, ${answer.what}`);
      t.match(error, { status: 200, requestId: 'req-bad', message: answer.message }, `${call.name}, ${answer.what}`);
    }
  }
});

t.test('JSON of the wrong shape: a HubApiError naming what is missing', async (t) => {
  for (const call of calls.filter((c) => c.reads)) {
    for (const shape of wrongShapes[call.name === 'list' ? 'list' : 'one']) {
      interceptor(call).reply(200, JSON.stringify(shape.body), { 'content-type': 'application/json' });
      const error = await failure(call);
      t.type(error, HubApiError, `${call.name}, ${shape.what}`);
      t.match(error.message, shape.message, `${call.name}, ${shape.what}`);
    }
  }
});

t.test('refused, reset and timed-out connections: a HubConnectionError naming the URL', async (t) => {
  for (const call of calls) {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND']) {
      interceptor(call).replyWithError(Object.assign(new Error(`connect ${code} 127.0.0.1:443`), { code }));
      const error = await failure(call);
      t.type(error, HubConnectionError, `${call.name}, ${code}`);
      t.match(error.message, new RegExp(`^Cannot reach the hub at ${HUB}${call.path}: `), `${call.name}, ${code}`);
      t.notOk(error.message.includes(TOKEN));
    }
  }
  // A slow hub: the caller's signal bounds the wait (the client has no timeout of its own).
  nock(HUB).get('/api/settings/webhooks').delay(5_000).reply(200, []);
  const started = Date.now();
  const error = await listWebhooks({ ...hubOptions, signal: AbortSignal.timeout(30) }).catch((e: unknown) => e);
  t.type(error, HubConnectionError);
  t.match((error as Error).message, /^Cannot reach the hub at https:\/\/huggingface.co\/api\/settings\/webhooks: .*(timeout|abort)/i);
  t.ok(Date.now() - started < 2_000, 'the timeout ended the wait');
});

t.test('any webhook id stays one URL-encoded path segment', async (t) => {
  // An injected transport sees the request target exactly as the client built it, before any parsing.
  const seen: string[] = [];
  const fetch: typeof globalThis.fetch = async (input) => {
    seen.push(String(input instanceof Request ? input.url : input).slice(HUB.length));
    return new Response(JSON.stringify({ error: 'Webhook not found' }), { status: 404, headers: { 'content-type': 'application/json' } });
  };
  const id = fc.oneof(
    fc.string({ unit: 'binary', minLength: 1 }),
    fc.constantFrom('../enable', '..%2F', '%2e%2e', './x', 'a/b', 'a?b=1', 'a#b', '?', '#', ' x ', 'ö/ü', '\u{1F600}', 'a%20b', '..\\x'),
    fc
      .array(fc.constantFrom('.', '..', '/', '?', '#', '%', 'a', '%2F', '\\'), { minLength: 1, maxLength: 6 })
      .map((parts) => parts.join('')),
  );
  await fc.assert(
    fc.asyncProperty(id, async (webhookId) => {
      seen.length = 0;
      const error = await getWebhook({ ...hubOptions, fetch, webhookId }).catch((e: unknown) => e);
      if (webhookId.trim() === '' || webhookId === '.' || webhookId === '..') {
        if (!(error instanceof WebhookInputError) || seen.length !== 0)
          throw new Error(`"${webhookId}" should be refused before any request`);
        return;
      }
      if (!(error instanceof HubApiError) || error.status !== 404) throw new Error(`"${webhookId}": ${String(error)}`);
      const path = seen[0] ?? '';
      const prefix = '/api/settings/webhooks/';
      const segment = path.slice(prefix.length);
      if (seen.length !== 1 || !path.startsWith(prefix) || /[/?#]/.test(segment) || decodeURIComponent(segment) !== webhookId) {
        throw new Error(`"${webhookId}" reached ${JSON.stringify(seen)}`);
      }
    }),
    { numRuns: 500 },
  );
  t.pass('500 ids, each in its own segment');
});

// fetch follows redirects itself (a 301 is a step on the way, not an answer), so they are left out.
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

t.test('any answer at all: a webhook, or a HubApiError with that status, never another error or the token', async (t) => {
  const answer = fc.record({
    status: fc.oneof(
      fc.constantFrom(200, 201, 204, 304, 400, 401, 403, 404, 409, 429, 500, 502, 503),
      fc.integer({ min: 200, max: 599 }).filter((status) => !REDIRECTS.has(status)),
    ),
    body: fc.oneof(
      fc.jsonValue().map((value) => JSON.stringify(value)),
      fc.jsonValue().map((value) => JSON.stringify({ webhook: value })),
      fc.jsonValue().map((value) => JSON.stringify({ error: value, message: value })),
      fc.string({ unit: 'binary' }),
      fc.constant(`{"error":"Bearer ${TOKEN}"}`),
    ),
    headers: fc.record(
      { 'x-request-id': fc.stringMatching(/^[\x21-\x7e]{1,40}$/), 'x-error-message': fc.stringMatching(/^[\x20-\x7e]{0,60}$/) },
      { requiredKeys: [] },
    ),
    call: fc.constantFrom(...calls),
  });
  await fc.assert(
    fc.asyncProperty(answer, async ({ status, body, headers, call }) => {
      nock.cleanAll();
      interceptor(call).reply(status, body, headers);
      const outcome = await call.run().then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      );
      if (!('error' in outcome)) return;
      const { error } = outcome;
      if (!(error instanceof HubApiError)) throw new Error(`${call.name} ${status}: ${String(error)}`);
      if (error.status !== status || error.message.includes(TOKEN) || !error.message.includes(`HTTP ${status} from ${call.method}`)) {
        throw new Error(`${call.name} ${status}: ${error.message}`);
      }
    }),
    { numRuns: 200 },
  );
  t.pass('200 answers, each a result or a HubApiError');
});
