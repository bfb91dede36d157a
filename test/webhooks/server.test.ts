import { connect } from 'node:net';
import t, { type Test } from 'tap';
import { fixedClock } from '../../src/runtime/clock.js';
import type { WebhookContext } from '../../src/webhooks/context.js';
import type { WebhookPayload } from '../../src/webhooks/payload.js';
import { sendTestDelivery } from '../../src/webhooks/send-test-delivery.js';
import { buildWebhooksApp } from '../../src/webhooks/app.js';
import { DeliveryEvents } from '../../src/webhooks/delivery-events.js';
import { resolveOptions } from '../../src/webhooks/options.js';
import { WebhookTunnelError } from '../../src/webhooks/errors.js';
import { WebhooksServer } from '../../src/webhooks/server.js';
import type { WebhooksServerOptions } from '../../src/webhooks/options.js';
import { capturedLogger } from '../support/captured-logger.js';
import { fixture, fixtureText } from './helpers.js';

const SECRET = 'wh-secret-7f3a91c2';
const quietEnv = { HF_HUB_DISABLE_EXPERIMENTAL_WARNING: '1' };

/** A launched server on a free loopback port, closed after the test. */
async function start(
  t: Test,
  options: WebhooksServerOptions = {},
  register: (server: WebhooksServer) => void = () => {},
): Promise<{ server: WebhooksServer; url: string; localUrl: string; printed: string[] }> {
  const printed: string[] = [];
  const server = new WebhooksServer({ port: 0, logger: false, env: quietEnv, print: (line) => printed.push(line), ...options });
  register(server);
  const launched = await server.launch();
  t.teardown(() => launched.close());
  return { server, url: launched.url, localUrl: launched.localUrl, printed };
}

function post(url: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
}

t.test('a delivery reaches its handler typed, with the Webhook-Id, and the return value is the response', async (t) => {
  const seen: { payload: WebhookPayload; context: WebhookContext }[] = [];
  const { url } = await start(t, { webhookSecret: SECRET, clock: fixedClock('2026-11-21T06:00:00Z') }, (server) => {
    server.addWebhook(function on_commit(payload, context) {
      seen.push({ payload, context });
      return { received: payload.repo.name, sha: payload.repo.headSha };
    });
  });
  const res = await sendTestDelivery(`${url}/webhooks/on_commit`, fixture('repo-content-update'), {
    secret: SECRET,
    webhookId: '6744a3e1f0c2b8d9e5a71234',
  });
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /^application\/json/);
  t.same(res.body, { received: 'Wauplin/gradio-user-history', sha: '5e7f29fffcc579cb52539fddb14a1a4f85f39e44' });
  t.equal(seen.length, 1);
  const { payload, context } = seen[0]!;
  t.equal(payload.updatedRefs?.[1]?.oldSha, null, 'a created ref keeps its null oldSha');
  t.equal(context.name, 'on_commit');
  t.equal(context.webhookId, '6744a3e1f0c2b8d9e5a71234');
  t.equal(context.event, 'repo.content:update');
  t.equal(context.receivedAt.toISOString(), '2026-11-21T06:00:00.000Z');
  t.equal(context.headers['x-webhook-secret'], undefined, 'the secret is not handed to handlers');
  t.equal(context.headers['content-type'], 'application/json');
});

t.test('each fixture of the Hub is accepted, and unknown extra keys are kept', async (t) => {
  const got: WebhookPayload[] = [];
  const { url } = await start(t, {}, (server) => server.addWebhook('/all', (payload) => void got.push(payload)));
  for (const name of ['repo-content-update', 'discussion-created', 'comment-created', 'repo-config-update'] as const) {
    const res = await sendTestDelivery(`${url}/webhooks/all`, { ...fixture(name), addedByTheHubLater: { x: 1 } });
    t.equal(res.status, 200, name);
    t.equal(res.body, null, `${name}: a handler returning nothing answers null`);
  }
  t.equal(got[1]?.discussion?.num, 19);
  t.equal(got[2]?.comment?.content, 'Thanks for the report, the deduplicated split is pushed in refs/pr/13.');
  t.same(got[3]?.updatedConfig, { private: false });
  t.same((got[0] as unknown as Record<string, unknown>).addedByTheHubLater, { x: 1 });
});

t.test('the three naming rules, and async handlers', async (t) => {
  const { server, url, printed } = await start(t, {}, (server) => {
    server.addWebhook(async function by_function_name() {
      return 'function';
    });
    server.addWebhook('/explicit_name', () => 'explicit');
    const arrow = (): string => 'arrow';
    server.addWebhook(arrow);
    server.addWebhook('nested/path/', () => 'nested');
  });
  t.same(server.webhooks, ['by_function_name', 'explicit_name', 'arrow', 'nested/path']);
  const expected: [string, string][] = [
    ['by_function_name', 'function'],
    ['explicit_name', 'explicit'],
    ['arrow', 'arrow'],
    ['nested/path', 'nested'],
  ];
  for (const [name, body] of expected) {
    const res = await sendTestDelivery(`${url}/webhooks/${name}`, fixture('repo-config-update'));
    t.same([res.status, res.body], [200, body], name);
  }
  t.same(printed.slice(-6), [
    'Webhooks are correctly setup and ready to use:',
    `  - POST ${url}/webhooks/by_function_name`,
    `  - POST ${url}/webhooks/explicit_name`,
    `  - POST ${url}/webhooks/arrow`,
    `  - POST ${url}/webhooks/nested/path`,
    'Go to https://huggingface.co/settings/webhooks to setup your webhooks.',
  ]);
  t.match(printed.join('\n'), `Running on local URL:  ${url}`);
});

t.test('a handler added after launch gets its route at once', async (t) => {
  const { server, url, printed } = await start(t, {}, (server) => server.addWebhook('/first', () => 1));
  const registered = server.addWebhook('/late', () => 'late');
  t.same({ name: registered.name, path: registered.path }, { name: 'late', path: '/webhooks/late' });
  t.equal(registered.server, server);
  t.equal(printed.at(-1), `  - POST ${url}/webhooks/late`);
  t.same((await sendTestDelivery(`${url}/webhooks/late`, fixture('repo-config-update'))).body, 'late');
});

t.test('the secret: missing is 401, wrong is 403, with the Hub bodies; right passes', async (t) => {
  const log = capturedLogger();
  let calls = 0;
  const { url } = await start(t, { webhookSecret: SECRET, logger: log.logger }, (server) => {
    server.addWebhook(function guarded() {
      calls += 1;
      return 'ok';
    });
  });
  const body = fixtureText('discussion-created');
  const missing = await post(`${url}/webhooks/guarded`, body);
  t.equal(missing.status, 401);
  t.same(await missing.json(), { error: 'x-webhook-secret header not set.' });
  const wrong = await post(`${url}/webhooks/guarded`, body, { 'x-webhook-secret': 'not-the-secret-at-all' });
  t.equal(wrong.status, 403);
  t.same(await wrong.json(), { error: 'Invalid webhook secret.' });
  const prefix = await post(`${url}/webhooks/guarded`, body, { 'x-webhook-secret': SECRET.slice(0, -1) });
  t.equal(prefix.status, 403, 'a prefix of the secret is wrong too');
  const upper = await post(`${url}/webhooks/guarded`, body, { 'X-Webhook-Secret': SECRET });
  t.equal(upper.status, 200, 'the header name is case-insensitive');
  t.equal(calls, 1, 'refused deliveries never reach the handler');

  const logged = log.text();
  t.notMatch(logged, 'not-the-secret-at-all', 'the given secret is not logged');
  t.notMatch(logged, SECRET, 'the real secret is not logged');
  t.notMatch(logged, 'Update co2 emissions', 'the body is not logged');
  const refusals = log.lines().filter((line) => line.msg === 'webhook request refused');
  t.same(
    refusals.map((line) => line.statusCode),
    [401, 403, 403],
  );
});

t.test('the secret is checked before the body is read', async (t) => {
  const { url } = await start(t, { webhookSecret: SECRET, bodyLimit: 100 }, (server) => server.addWebhook('/x', () => 1));
  t.equal((await post(`${url}/webhooks/x`, '{not json')).status, 401, 'not a 400');
  t.equal((await post(`${url}/webhooks/x`, 'x'.repeat(500), { 'x-webhook-secret': 'nope' })).status, 403, 'not a 413');
  t.equal((await post(`${url}/webhooks/x`, '{}', { 'content-type': 'text/plain', 'x-webhook-secret': 'nope' })).status, 403, 'not a 415');
});

t.test('the secret comes from WEBHOOK_SECRET when not given', async (t) => {
  const { server, url, printed } = await start(t, { env: { ...quietEnv, WEBHOOK_SECRET: 'from-env' } }, (server) =>
    server.addWebhook('/x', () => 1),
  );
  t.equal(server.secretSet, true);
  t.equal(printed[0], 'Webhook secret is correctly defined.');
  t.equal((await sendTestDelivery(`${url}/webhooks/x`, fixture('repo-config-update'))).status, 401);
  t.equal((await sendTestDelivery(`${url}/webhooks/x`, fixture('repo-config-update'), { secret: 'from-env' })).status, 200);
});

t.test('without a secret the routes are open and startup warns', async (t) => {
  const { server, url, printed } = await start(t, {}, (server) => server.addWebhook('/open', () => 'open'));
  t.equal(server.secretSet, false);
  t.match(printed[0] ?? '', 'Webhook secret is not defined. This means your webhook endpoints will be open to everyone.');
  t.match(printed.join('\n'), 'WEBHOOK_SECRET');
  t.equal((await sendTestDelivery(`${url}/webhooks/open`, fixture('repo-config-update'), { secret: 'anything' })).status, 200);
});

t.test('bad bodies: 415, 400, 413 and 422, each with an error string', async (t) => {
  let calls = 0;
  const { url } = await start(t, { bodyLimit: 4096 }, (server) => server.addWebhook('/x', () => void (calls += 1)));
  const route = `${url}/webhooks/x`;
  const cases: [string, Promise<Response>, number, RegExp][] = [
    ['text/plain', post(route, '{}', { 'content-type': 'text/plain' }), 415, /application\/json/],
    ['form', post(route, 'a=1', { 'content-type': 'application/x-www-form-urlencoded' }), 415, /application\/json/],
    ['no body, no type', fetch(route, { method: 'POST' }), 415, /application\/json/],
    ['malformed JSON', post(route, '{"event": '), 400, /not valid JSON/],
    ['empty JSON body', post(route, ''), 400, /empty/],
    ['too large', post(route, JSON.stringify({ pad: 'x'.repeat(5000) })), 413, /4096 bytes/],
    ['an array', post(route, '[]'), 422, /must be a JSON object/],
    [
      'not a payload',
      post(route, '{"hello":"world"}'),
      422,
      /payload\.event is required; payload\.repo is required; payload\.webhook is required/,
    ],
  ];
  for (const [label, response, status, message] of cases) {
    const res = await response;
    t.equal(res.status, status, label);
    t.match(res.headers.get('content-type'), /^application\/json/, label);
    t.match(((await res.json()) as { error: string }).error, message, label);
  }
  const wrong = fixture('repo-content-update') as unknown as { repo: Record<string, unknown>; webhook: Record<string, unknown> };
  wrong.repo.type = 'bucket';
  wrong.webhook.version = 2;
  const res = await sendTestDelivery(route, wrong);
  t.equal(res.status, 422);
  t.same(res.body, {
    error: 'Invalid webhook payload: payload.repo.type must be one of "model", "dataset", "space"; payload.webhook.version must be 3.',
  });
  t.equal(calls, 0, 'no bad body reached the handler');
  const ok = await post(route, fixtureText('repo-config-update'), { 'content-type': 'application/json; charset=utf-8' });
  t.equal(ok.status, 200, 'a charset parameter is fine');
});

t.test('a handler that throws is a logged 500, and the server keeps serving', async (t) => {
  const log = capturedLogger();
  let fail = true;
  const { url } = await start(t, { logger: log.logger }, (server) => {
    server.addWebhook(async function flaky() {
      if (fail) throw new Error('database unreachable');
      return 'recovered';
    });
    server.addWebhook(function cyclic() {
      const value: Record<string, unknown> = {};
      value.self = value;
      return value;
    });
  });
  const res = await sendTestDelivery(`${url}/webhooks/flaky`, fixture('repo-config-update'), { webhookId: 'abc123' });
  t.equal(res.status, 500);
  t.same(res.body, { error: 'The webhook handler flaky failed; see the server log.' });
  const line = log.lines().find((l) => l.msg === 'webhook handler failed');
  t.match(line, { route: 'flaky', webhookId: 'abc123', err: { message: 'database unreachable' } });
  fail = false;
  t.same((await sendTestDelivery(`${url}/webhooks/flaky`, fixture('repo-config-update'))).body, 'recovered');
  t.equal((await sendTestDelivery(`${url}/webhooks/cyclic`, fixture('repo-config-update'))).status, 500, 'an unserialisable result too');
});

t.test('every error is JSON with an error string, 404s included', async (t) => {
  const { url } = await start(t, { webhookSecret: SECRET }, (server) => server.addWebhook('/x', () => 1));
  const unknownPage = await fetch(`${url}/nothing/here?secret=abc`);
  t.equal(unknownPage.status, 404);
  t.same(await unknownPage.json(), { error: 'Not found: GET /nothing/here.' });
  const getRoute = await fetch(`${url}/webhooks/x`);
  t.equal(getRoute.status, 404, 'webhook routes are POST only');
  t.match(await getRoute.json(), { error: String });
  const unknownHook = await sendTestDelivery(`${url}/webhooks/nope`, fixture('repo-config-update'), { secret: SECRET });
  t.same([unknownHook.status, unknownHook.body], [404, { error: 'No webhook is registered at /webhooks/nope.' }]);
  const anonymous = await sendTestDelivery(`${url}/webhooks/nope`, fixture('repo-config-update'));
  t.equal(anonymous.status, 401, 'the secret comes first, so route names stay private');
  const bare = await sendTestDelivery(`${url}/webhooks`, fixture('repo-config-update'), { secret: SECRET });
  t.equal(bare.status, 404, 'the bare route needs an on() listener');
});

t.test('the landing page lists the routes, the secret state and the Hub setup', async (t) => {
  const { url } = await start(t, { webhookSecret: SECRET }, (server) => server.addWebhook('/on_commit', () => 1));
  const res = await fetch(`${url}/`);
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /^text\/html/);
  const html = await res.text();
  t.match(html, `POST ${url}/webhooks/on_commit`);
  t.match(html, 'https://huggingface.co/settings/webhooks');
  t.match(html, 'A secret is set');
  t.notMatch(html, SECRET, 'the secret itself is never shown');
  t.match(html, 'runs locally');
});

t.test('the ui option replaces the landing page: a string or a function', async (t) => {
  const fixed = await start(t, { ui: '<h1>Mine</h1>' }, (server) => server.addWebhook('/x', () => 1));
  t.equal(await (await fetch(`${fixed.url}/`)).text(), '<h1>Mine</h1>');
  const dynamic = await start(
    t,
    { ui: async (info) => `<p>${info.webhooks.map((w) => w.url).join(',')} secret=${info.secretSet} local=${info.local}</p>` },
    (server) => server.addWebhook('/y', () => 1),
  );
  t.equal(await (await fetch(`${dynamic.url}/`)).text(), `<p>${dynamic.url}/webhooks/y secret=false local=true</p>`);
});

t.test('on(...) listeners get every verified delivery by scope:action, and the bare route', async (t) => {
  const log = capturedLogger();
  const heard: string[] = [];
  const { server, url, printed } = await start(t, { webhookSecret: SECRET, logger: log.logger }, (server) => {
    server.addWebhook('/named', () => 'named');
    server.on('repo.content:update', ({ payload, context }) => void heard.push(`content ${payload.repo.name} via ${context.name}`));
    server.on('discussion:create', () => {
      throw new Error('listener bug');
    });
    server.on('*', (name, { context }) => void heard.push(`* ${name} via ${context.name || '(bare)'}`));
  });
  t.equal(printed.at(-2), `  - POST ${url}/webhooks`, 'the bare route is printed');
  t.equal((await sendTestDelivery(`${url}/webhooks/named`, fixture('repo-content-update'), { secret: SECRET })).body, 'named');
  const bare = await sendTestDelivery(`${url}/webhooks`, fixture('discussion-created'), { secret: SECRET });
  t.same([bare.status, bare.body], [200, null], 'a throwing listener does not change the response');
  t.equal((await sendTestDelivery(`${url}/webhooks`, fixture('discussion-created'), { secret: 'bad' })).status, 403);
  t.same(heard, ['content Wauplin/gradio-user-history via named', '* repo.content:update via named', '* discussion:create via (bare)']);
  t.match(
    log.lines().find((l) => l.msg === 'a webhook event listener failed'),
    { err: { message: 'listener bug' } },
  );
  const wildcard = (name: string): void => void heard.push(`again ${name}`);
  server.on('*', wildcard).off('*', wildcard);
  await sendTestDelivery(`${url}/webhooks`, fixture('comment-created'), { secret: SECRET });
  t.equal(heard.at(-1), '* discussion.comment:create via (bare)', 'a removed listener is not called');
});

t.test('launch() is idempotent and close() frees the port; a closed server can launch again', async (t) => {
  const server = new WebhooksServer({ port: 0, logger: false, env: quietEnv, print: () => {} });
  server.addWebhook('/x', () => 'x');
  const [a, b] = await Promise.all([server.launch(), server.launch()]);
  t.equal(a.url, b.url);
  t.equal(server.url, a.url);
  t.same(a.webhookUrls, [`${a.url}/webhooks/x`]);
  await a.close();
  t.equal(server.url, undefined);
  await t.rejects(fetch(`${a.url}/`), 'nothing listens after close');
  const again = await server.launch();
  t.equal((await sendTestDelivery(`${again.url}/webhooks/x`, fixture('repo-config-update'))).body, 'x');
  await server.close();
  await server.close();
});

t.test('a tunnel provider gives the public URL; nothing is opened without one', async (t) => {
  const opened: string[] = [];
  let closed = false;
  const { server, url, printed } = await start(
    t,
    {
      tunnel: {
        async open(local) {
          opened.push(local.url);
          return { url: 'https://quiet-river-42.example.dev/', close: () => void (closed = true) };
        },
      },
    },
    (server) => server.addWebhook('/x', () => 1),
  );
  t.equal(url, 'https://quiet-river-42.example.dev');
  t.match(opened[0], /^http:\/\/127\.0\.0\.1:\d+$/);
  t.match(printed.join('\n'), 'Running on public URL: https://quiet-river-42.example.dev');
  t.match(printed.join('\n'), '  - POST https://quiet-river-42.example.dev/webhooks/x');
  await server.close();
  t.equal(closed, true, 'the tunnel closes with the server');
});

t.test('a failing tunnel: launch() reports it and logs it, and the local server keeps serving', async (t) => {
  const log = capturedLogger();
  const printed: string[] = [];
  const server = new WebhooksServer({
    port: 0,
    logger: log.logger,
    env: quietEnv,
    print: (line) => printed.push(line),
    tunnel: { open: () => Promise.reject(new Error('tunnel refused')) },
  });
  server.addWebhook('/x', () => 'served');
  t.teardown(() => server.close());
  const failure = (await server.launch().then(
    () => undefined,
    (error: unknown) => error,
  )) as WebhookTunnelError;
  t.type(failure, WebhookTunnelError);
  t.equal(failure.message, 'tunnel refused');
  t.equal(server.url, failure.localUrl, 'the URL is the local one');
  t.match(printed.join('\n'), 'The public URL could not open: tunnel refused The local URL still works.');
  t.match(
    log.lines().find((line) => line.level === 50),
    {
      msg: 'the public URL could not open; the local server keeps serving',
      localUrl: failure.localUrl,
      err: { message: 'tunnel refused' },
    },
  );
  const answer = await sendTestDelivery(`${failure.localUrl}/webhooks/x`, fixture('repo-config-update'));
  t.same([answer.status, answer.body], [200, 'served'], 'deliveries are still handled locally');
  await server.close();
  await t.rejects(fetch(`${failure.localUrl}/`), 'close() stops it');
});

t.test('a body that trickles in is cut after requestTimeout with a 408; slow headers after headersTimeout', async (t) => {
  const { localUrl, server } = await start(t, { webhookSecret: SECRET, requestTimeout: 300, headersTimeout: 200 }, (server) =>
    server.addWebhook('/x', () => 1),
  );
  t.equal(server.webhooks.length, 1);
  const { port } = new URL(localUrl);
  const trickle = async (first: string): Promise<{ answer: string; ms: number }> => {
    const started = Date.now();
    const socket = connect(Number(port), '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => (answer += String(chunk)));
    socket.on('error', () => {});
    socket.write(first);
    const drip = setInterval(() => socket.writable && socket.write(' '), 50);
    await new Promise((resolve) => socket.on('close', resolve));
    clearInterval(drip);
    return { answer, ms: Date.now() - started };
  };
  const body = await trickle(
    `POST /webhooks/x HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Webhook-Secret: ${SECRET}\r\nContent-Length: 100000\r\n\r\n{`,
  );
  t.match(body.answer, /^HTTP\/1\.1 408 /, 'a 408, then the connection is closed');
  t.ok(body.ms >= 300 && body.ms < 5000, `cut after the timeout (${body.ms} ms)`);
  const headers = await trickle('POST /webhooks/x HTTP/1.1\r\nHost: x\r\nX-Slow: ');
  t.match(headers.answer, /^HTTP\/1\.1 408 /);
  t.ok(headers.ms >= 200 && headers.ms < 5000, `slow headers are cut too (${headers.ms} ms)`);
  const answer = await sendTestDelivery(`${localUrl}/webhooks/x`, fixture('repo-config-update'), { secret: SECRET });
  t.equal(answer.status, 200, 'a delivery that arrives in time is served');
});

t.test('by default a request has 10 s to arrive, headers and body', async (t) => {
  const { requestTimeout, headersTimeout, bodyLimit, secret } = resolveOptions({ env: {} });
  const app = buildWebhooksApp({
    secret,
    bodyLimit,
    requestTimeout,
    headersTimeout,
    logger: capturedLogger().logger,
    clock: fixedClock('2026-11-23T09:00:00Z'),
    handlerFor: () => undefined,
    events: new DeliveryEvents(),
    landingPage: async () => '',
  });
  await app.ready();
  t.teardown(() => app.close());
  t.same([app.server.requestTimeout, app.server.headersTimeout], [10_000, 10_000], 'the Node server cuts a request after 10 s');
});

t.test('on a Space, the public URL is https://SPACE_HOST', async (t) => {
  const { url, localUrl } = await start(t, { env: { ...quietEnv, SPACE_HOST: 'julien-c-hooks.hf.space' } }, (server) =>
    server.addWebhook('/x', () => 1),
  );
  t.equal(url, 'https://julien-c-hooks.hf.space');
  const html = await (await fetch(`${localUrl}/`)).text();
  t.match(html, 'POST https://julien-c-hooks.hf.space/webhooks/x');
  t.notMatch(html, 'runs locally');
});
