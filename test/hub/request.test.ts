import nock from 'nock';
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { HubApiError, HubConfigError, HubConnectionError } from '../../src/hub/errors.js';
import { hubRequest } from '../../src/hub/request.js';
import { HUB, TOKEN, useNock } from '../support/hub-fixtures.js';
import { testDir } from '../support/test-dir.js';

useNock(t);

/** A fetch that records its calls and answers `body`. */
function recordingFetch(body = '{"ok":true}', status = 200) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return new Response(body, { status });
  }) as typeof globalThis.fetch;
  return { calls, fetch };
}

t.test('the injected fetch gets the hubUrl, the Bearer accessToken and a JSON body', async (t) => {
  const { calls, fetch } = recordingFetch();
  const result = await hubRequest(
    { method: 'POST', path: '/api/x', body: { a: 1 } },
    { fetch, hubUrl: 'http://127.0.0.1:9/', accessToken: 'hf_given' },
    (body) => body,
  );
  t.same(result, { ok: true });
  t.equal(calls[0]?.url, 'http://127.0.0.1:9/api/x');
  t.match(calls[0]?.init, {
    method: 'POST',
    body: '{"a":1}',
    headers: { authorization: 'Bearer hf_given', 'content-type': 'application/json' },
  });
});

t.test('`token` is the same option by its shorter name; `accessToken` wins; line breaks and blanks are no part of it', async (t) => {
  const { calls, fetch } = recordingFetch();
  await hubRequest({ method: 'GET', path: '/api/x' }, { fetch, token: 'hf_short\n' });
  await hubRequest({ method: 'GET', path: '/api/x' }, { fetch, token: 'hf_short', accessToken: ' hf_long\r\n' });
  await hubRequest({ method: 'GET', path: '/api/x' }, { fetch, token: 'hf_short', accessToken: '  ' });
  t.same(
    calls.map((call) => (call.init.headers as Record<string, string>).authorization),
    ['Bearer hf_short', 'Bearer hf_long', 'Bearer hf_short'],
  );
  t.equal(calls[0]?.url, `${HUB}/api/x`, 'the hub URL defaults to huggingface.co');
});

t.test('no token: a HubConfigError that says what to pass, and no request at all', async (t) => {
  const { calls, fetch } = recordingFetch('[]');
  for (const accessToken of [undefined, '', ' \n']) {
    const error = await hubRequest({ method: 'GET', path: '/api/x' }, { fetch, accessToken }).catch((e: unknown) => e);
    t.type(error, HubConfigError);
    t.match(
      (error as Error).message,
      /^No access token: pass `accessToken`, a User Access Token from https:\/\/huggingface.co\/settings\/tokens/,
    );
  }
  t.equal(calls.length, 0);
});

// The library takes its token, hub URL and fetch from its caller only (huggingface.js's way); the
// CLI resolves HF_TOKEN, HF_ENDPOINT, the token file and HF_HUB_OFFLINE itself (src/cli/hub-access/).
t.test('an environment full of HF_* variables and a token file changes nothing', async (t) => {
  const home = testDir(t, { '.cache': { huggingface: { token: 'hf_fromFile' } }, hfhome: { token: 'hf_fromHfHome' } });
  const names = [
    'HF_TOKEN',
    'HUGGING_FACE_HUB_TOKEN',
    'HF_ENDPOINT',
    'HF_HUB_OFFLINE',
    'TRANSFORMERS_OFFLINE',
    'HF_HOME',
    'HF_TOKEN_PATH',
    'HOME',
  ];
  const saved = Object.fromEntries(names.map((name) => [name, process.env[name]]));
  t.teardown(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
  Object.assign(process.env, {
    HF_TOKEN: 'hf_fromEnv',
    HUGGING_FACE_HUB_TOKEN: 'hf_legacy',
    HF_ENDPOINT: 'http://127.0.0.1:9',
    HF_HUB_OFFLINE: '1',
    TRANSFORMERS_OFFLINE: '1',
    HF_HOME: `${home}/hfhome`,
    HF_TOKEN_PATH: `${home}/hfhome/token`,
    HOME: home,
  });
  const { calls, fetch } = recordingFetch();
  await hubRequest({ method: 'GET', path: '/api/x' }, { fetch, accessToken: 'hf_given' });
  t.equal(calls[0]?.url, `${HUB}/api/x`, 'HF_ENDPOINT is not read; HF_HUB_OFFLINE sends anyway');
  t.match(calls[0]?.init.headers, { authorization: 'Bearer hf_given' });
  await t.rejects(hubRequest({ method: 'GET', path: '/api/x' }, { fetch }), HubConfigError, 'HF_TOKEN and the token files are not read');
  t.equal(calls.length, 1);
});

t.test('no file under src/hub/ reads process.env, a token file or the home folder', async (t) => {
  const folder = new URL('../../src/hub/', import.meta.url);
  const files = readdirSync(folder).filter((name) => /\.[jt]s$/.test(name) && !name.endsWith('.d.ts'));
  t.ok(files.length > 10, 'the hub client files are there');
  for (const name of files) {
    const source = readFileSync(new URL(name, folder), 'utf8');
    t.notMatch(source, /from '(node:)?os'|homedir/, `${name}: no home folder`);
    // The one file read is the package's own package.json, for the User-Agent.
    if (name.startsWith('user-agent.')) t.match(source, /readFileSync\(new URL\('\.\.\/\.\.\/package\.json'/);
    else t.notMatch(source, /from '(node:)?fs(\/promises)?'/, `${name}: no file`);
    // Code, not prose: comments and messages may name the variables the CLI reads.
    const code = source.replace(/^\s*(\/\/|\/?\*).*$/gm, '').replace(/'[^'\n]*'|`[^`]*`/g, "''");
    t.notMatch(code, /process\s*\.\s*env|\benv\s*[.[]/, `${name}: no environment`);
  }
});

t.test('the default fetch is the global one, looked up at each call', async (t) => {
  const globalFetch = globalThis.fetch;
  t.teardown(() => void (globalThis.fetch = globalFetch));
  const { calls, fetch } = recordingFetch();
  globalThis.fetch = fetch;
  await hubRequest({ method: 'GET', path: '/api/x' }, { accessToken: TOKEN });
  t.equal(calls[0]?.url, `${HUB}/api/x`);
});

t.test('a refused connection is a HubConnectionError naming the URL', async (t) => {
  const error = await hubRequest({ method: 'GET', path: '/api/x' }, { accessToken: TOKEN }, (b) => b).catch((e: unknown) => e);
  t.type(error, HubConnectionError);
  t.match((error as Error).message, /^Cannot reach the hub at https:\/\/huggingface.co\/api\/x: /);
  const aborted = await hubRequest({ method: 'GET', path: '/api/x' }, { accessToken: TOKEN, signal: AbortSignal.abort() }).catch(
    (e: unknown) => e,
  );
  t.type(aborted, HubConnectionError);
});

t.test('a body that breaks off is a HubConnectionError', async (t) => {
  const broken = new Response(new ReadableStream({ start: (controller) => controller.error(new Error('socket hang up')) }));
  const error = await hubRequest(
    { method: 'GET', path: '/api/x' },
    { accessToken: TOKEN, fetch: (async () => broken) as unknown as typeof fetch },
  ).catch((e: unknown) => e);
  t.type(error, HubConnectionError);
  t.match((error as Error).message, /broke while reading the answer: socket hang up/);
});

t.test('a 2xx that is not JSON is a HubApiError with the status and request id', async (t) => {
  nock(HUB).get('/api/x').reply(200, '<html>maintenance</html>', { 'x-request-id': 'req-html' });
  const error = await hubRequest({ method: 'GET', path: '/api/x' }, { accessToken: TOKEN }, (b) => b).catch((e: unknown) => e);
  t.type(error, HubApiError);
  t.match(error, { status: 200, requestId: 'req-html', message: /the hub answered with something that is not JSON/ });
});

t.test('a 5xx without a message still says what failed', async (t) => {
  nock(HUB).get('/api/x').reply(503, '');
  await t.rejects(hubRequest({ method: 'GET', path: '/api/x' }, { accessToken: TOKEN }), {
    status: 503,
    serverMessage: undefined,
    message: 'no message (HTTP 503 from GET https://huggingface.co/api/x)',
  });
});

t.test('every request says who sends it: emotion-hub/<package version>; node/<node version>', async (t) => {
  const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  const scope = nock(HUB).matchHeader('user-agent', `emotion-hub/${version}; node/${process.versions.node}`).get('/api/x').reply(200, '{}');
  await hubRequest({ method: 'GET', path: '/api/x' }, { accessToken: TOKEN }, (b) => b);
  t.ok(scope.isDone());
  t.match(version, /^\d+\.\d+\.\d+/);
});

t.test("the hub URL's userinfo is sent to the server but never printed in an error", async (t) => {
  const options = { hubUrl: 'http://proxy-user:zq-proxy-pass@127.0.0.1:9', accessToken: 'hf_given' };
  const urls: string[] = [];
  const refused = (async (url: string) => {
    urls.push(url);
    throw Object.assign(new Error('fetch failed'), { cause: new Error(`connect ECONNREFUSED (${url})`) });
  }) as unknown as typeof fetch;
  const error = await hubRequest({ method: 'GET', path: '/api/x' }, { ...options, fetch: refused }).catch((caught: Error) => caught);
  t.equal(urls[0], 'http://proxy-user:zq-proxy-pass@127.0.0.1:9/api/x', 'the request keeps it (a proxy may need it)');
  t.type(error, HubConnectionError);
  t.match((error as Error).message, 'http://127.0.0.1:9/api/x');
  t.notMatch((error as Error).message, /proxy-user|zq-proxy-pass/);
  const failing = (async () => new Response('{"error":"nope"}', { status: 500 })) as unknown as typeof fetch;
  const apiError = await hubRequest({ method: 'GET', path: '/api/x' }, { ...options, fetch: failing }).catch((caught: Error) => caught);
  t.notMatch((apiError as Error).message, /proxy-user|zq-proxy-pass/);
  const config = await hubRequest({ method: 'GET', path: '/x' }, { accessToken: TOKEN, hubUrl: 'ftp://u:zq-ftp-pass@host' }).catch(
    (caught: Error) => caught,
  );
  t.type(config, HubConfigError);
  t.match((config as Error).message, /^The `hubUrl` option must be an http\(s\) URL.*got "ftp:\/\/host"/);
  t.notMatch((config as Error).message, 'zq-ftp-pass');
});
