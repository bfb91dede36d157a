import nock from 'nock';
import t from 'tap';
import { readFileSync } from 'node:fs';
import { HubApiError, HubConfigError, HubConnectionError, HubOfflineError } from '../../src/hub/errors.js';
import { hubRequest } from '../../src/hub/request.js';
import { HUB, TOKEN, useNock } from '../support/hub-fixtures.js';

useNock(t);

t.test('an injected fetch gets the URL from HF_ENDPOINT, the Bearer token and a JSON body', async (t) => {
  const calls: { url: string; init: RequestInit }[] = [];
  const fakeFetch = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return new Response('{"ok":true}', { status: 200 });
  }) as typeof fetch;
  const result = await hubRequest(
    { method: 'POST', path: '/api/x', body: { a: 1 } },
    { fetch: fakeFetch, env: { HF_ENDPOINT: 'http://127.0.0.1:9/', HF_TOKEN: 'hf_env' } },
    (body) => body,
  );
  t.same(result, { ok: true });
  t.equal(calls[0]?.url, 'http://127.0.0.1:9/api/x');
  t.match(calls[0]?.init, {
    method: 'POST',
    body: '{"a":1}',
    headers: { authorization: 'Bearer hf_env', 'content-type': 'application/json' },
  });
});

t.test('no token: a HubConfigError and no request at all', async (t) => {
  let called = false;
  const fakeFetch = (async () => {
    called = true;
    return new Response('[]');
  }) as unknown as typeof fetch;
  const dir = t.testdir({});
  await t.rejects(hubRequest({ method: 'GET', path: '/api/x' }, { fetch: fakeFetch, env: { HOME: dir } }), HubConfigError);
  const error = await hubRequest({ method: 'GET', path: '/api/x' }, { fetch: fakeFetch, env: { HOME: dir } }).catch((e: unknown) => e);
  t.type(error, HubConfigError);
  t.notOk(called);
});

t.test('a refused connection is a HubConnectionError naming the URL', async (t) => {
  const error = await hubRequest({ method: 'GET', path: '/api/x' }, { token: TOKEN, env: {} }, (b) => b).catch((e: unknown) => e);
  t.type(error, HubConnectionError);
  t.match((error as Error).message, /^Cannot reach the hub at https:\/\/huggingface.co\/api\/x: /);
  const aborted = await hubRequest({ method: 'GET', path: '/api/x' }, { token: TOKEN, env: {}, signal: AbortSignal.abort() }).catch(
    (e: unknown) => e,
  );
  t.type(aborted, HubConnectionError);
});

t.test('a body that breaks off is a HubConnectionError', async (t) => {
  const broken = new Response(new ReadableStream({ start: (controller) => controller.error(new Error('socket hang up')) }));
  const error = await hubRequest(
    { method: 'GET', path: '/api/x' },
    { token: TOKEN, env: {}, fetch: (async () => broken) as unknown as typeof fetch },
  ).catch((e: unknown) => e);
  t.type(error, HubConnectionError);
  t.match((error as Error).message, /broke while reading the answer: socket hang up/);
});

t.test('a 2xx that is not JSON is a HubApiError with the status and request id', async (t) => {
  nock(HUB).get('/api/x').reply(200, '<html>maintenance</html>', { 'x-request-id': 'req-html' });
  const error = await hubRequest({ method: 'GET', path: '/api/x' }, { token: TOKEN, env: {} }, (b) => b).catch((e: unknown) => e);
  t.type(error, HubApiError);
  t.match(error, { status: 200, requestId: 'req-html', message: /the hub answered with something that is not JSON/ });
});

t.test('a 5xx without a message still says what failed', async (t) => {
  nock(HUB).get('/api/x').reply(503, '');
  await t.rejects(hubRequest({ method: 'GET', path: '/api/x' }, { token: TOKEN, env: {} }), {
    status: 503,
    serverMessage: undefined,
    message: 'no message (HTTP 503 from GET https://huggingface.co/api/x)',
  });
});

t.test('HF_HUB_OFFLINE (or TRANSFORMERS_OFFLINE): a HubOfflineError before any request or token lookup', async (t) => {
  let called = false;
  const fakeFetch = (async () => {
    called = true;
    return new Response('[]');
  }) as unknown as typeof fetch;
  for (const env of [{ HF_HUB_OFFLINE: '1' }, { HF_HUB_OFFLINE: 'TRUE' }, { TRANSFORMERS_OFFLINE: 'yes' }]) {
    const error = await hubRequest({ method: 'GET', path: '/api/settings/webhooks' }, { fetch: fakeFetch, env }).catch((e: unknown) => e);
    t.type(error, HubOfflineError);
    t.type(error, HubConnectionError, 'an offline client is a client that cannot reach the hub');
    t.match(
      (error as Error).message,
      /^Cannot reach https:\/\/huggingface.co\/api\/settings\/webhooks: offline mode is enabled\. .*HF_HUB_OFFLINE/,
    );
  }
  t.equal(called, false);
  const answered = await hubRequest(
    { method: 'GET', path: '/x' },
    { fetch: (async () => new Response('1')) as unknown as typeof fetch, env: { HF_HUB_OFFLINE: '0', HF_TOKEN: 'hf_x' } },
    (b) => b,
  );
  t.equal(answered, 1, 'HF_HUB_OFFLINE=0 is online');
});

t.test('every request says who sends it: emotion-hub/<package version>; node/<node version>', async (t) => {
  const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  const scope = nock(HUB).matchHeader('user-agent', `emotion-hub/${version}; node/${process.versions.node}`).get('/api/x').reply(200, '{}');
  await hubRequest({ method: 'GET', path: '/api/x' }, { token: TOKEN, env: {} }, (b) => b);
  t.ok(scope.isDone());
  t.match(version, /^\d+\.\d+\.\d+/);
});

t.test("HF_ENDPOINT's userinfo is sent to the server but never printed in an error", async (t) => {
  const env = { HF_ENDPOINT: 'http://proxy-user:zq-proxy-pass@127.0.0.1:9', HF_TOKEN: 'hf_env' };
  const urls: string[] = [];
  const refused = (async (url: string) => {
    urls.push(url);
    throw Object.assign(new Error('fetch failed'), { cause: new Error(`connect ECONNREFUSED (${url})`) });
  }) as unknown as typeof fetch;
  const error = await hubRequest({ method: 'GET', path: '/api/x' }, { fetch: refused, env }).catch((caught: Error) => caught);
  t.equal(urls[0], 'http://proxy-user:zq-proxy-pass@127.0.0.1:9/api/x', 'the request keeps it (a proxy may need it)');
  t.type(error, HubConnectionError);
  t.match((error as Error).message, 'http://127.0.0.1:9/api/x');
  t.notMatch((error as Error).message, /proxy-user|zq-proxy-pass/);
  const failing = (async () => new Response('{"error":"nope"}', { status: 500 })) as unknown as typeof fetch;
  const apiError = await hubRequest({ method: 'GET', path: '/api/x' }, { fetch: failing, env }).catch((caught: Error) => caught);
  t.notMatch((apiError as Error).message, /proxy-user|zq-proxy-pass/);
  const config = await hubRequest({ method: 'GET', path: '/x' }, { env: { HF_ENDPOINT: 'ftp://u:zq-ftp-pass@host' } }).catch(
    (caught: Error) => caught,
  );
  t.type(config, HubConfigError);
  t.match((config as Error).message, 'got "ftp://host"');
  t.notMatch((config as Error).message, 'zq-ftp-pass');
});

// The CLI's cold start (docs/performance.md, target ≤ 3.5 × `node -e 0`) relies on this: without an
// injected fetch, hub calls go through node:http(s) and never touch the global fetch, whose first call
// loads and compiles undici (some 60 to 200 ms, more than the rest of `hub webhooks ls`).
t.test('without an injected fetch, a hub call never touches the global fetch', async (t) => {
  const globalFetch = globalThis.fetch;
  let fetched = 0;
  globalThis.fetch = (async () => {
    fetched += 1;
    throw new Error('the global fetch was used');
  }) as typeof fetch;
  t.teardown(() => void (globalThis.fetch = globalFetch));
  nock(HUB).get('/api/x').reply(200, { ok: true });
  const result = await hubRequest({ method: 'GET', path: '/api/x' }, { env: { HF_ENDPOINT: HUB, HF_TOKEN: TOKEN } }, (body) => body);
  t.same(result, { ok: true });
  t.equal(fetched, 0);
});
