import t from 'tap';
import { sendTestDelivery } from '../../src/webhooks/send-test-delivery.js';
import { capturedLogger } from '../support/captured-logger.js';
import { fixture, fixtureText } from './helpers.js';
import { SECRET, post, start } from './launched-server.js';

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
