import t from 'tap';
import { sendTestDelivery } from '../../src/webhooks/send-test-delivery.js';
import { capturedLogger } from '../support/captured-logger.js';
import { fixture, fixtureText } from './helpers.js';
import { SECRET, post, quietEnv, start } from './launched-server.js';

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
