import t, { type Test } from 'tap';
import type { WebhookContext } from '../../src/webhooks/context.js';
import { sendTestDelivery } from '../../src/webhooks/send-test-delivery.js';
import { WebhooksServer } from '../../src/webhooks/server.js';
import { capturedLogger } from '../support/captured-logger.js';
import { eventually } from '../../testkit/eventually.js';
import { startRedisServer } from '../support/redis-server.js';
import { fixture } from './helpers.js';

const quietEnv = { HF_HUB_DISABLE_EXPERIMENTAL_WARNING: '1' };

/** One receiver replica on a free port, sharing `redisUrl`; records what reached its handler. */
async function receiver(t: Test, options: { redisUrl?: string; env?: NodeJS.ProcessEnv; fail?: () => boolean } = {}) {
  const handled: string[] = [];
  const log = capturedLogger();
  const server = new WebhooksServer({
    port: 0,
    logger: log.logger,
    env: { ...quietEnv, ...options.env },
    print: () => undefined,
    autoStart: false,
    redisUrl: options.redisUrl,
  });
  server.addWebhook('/on_update', async (_payload, context: WebhookContext) => {
    handled.push(context.webhookId ?? '');
    if (options.fail?.()) throw new Error('handler failed');
    return { handled: true };
  });
  const launched = await server.launch();
  t.teardown(() => launched.close());
  return { url: `${launched.localUrl}/webhooks/on_update`, handled, log };
}

t.test('one delivery sent to three receiver replicas reaches a handler once', async (t) => {
  const redis = await startRedisServer(t);
  const replicas = await Promise.all([0, 1, 2].map(() => receiver(t, { redisUrl: redis.url })));
  const payload = fixture('repo-content-update');
  // The Hub retries; a load balancer may send each try to another replica, or several at once.
  const answers = await Promise.all(replicas.map(({ url }) => sendTestDelivery(url, payload, { webhookId: 'delivery-0001' })));
  t.same(
    answers.map((answer) => answer.status),
    [200, 200, 200],
    'every try is answered 200, so the Hub stops retrying',
  );
  t.equal(answers.filter((answer) => JSON.stringify(answer.body) === '{"handled":true}').length, 1, 'one replica handled it');
  t.equal(answers.filter((answer) => JSON.stringify(answer.body) === '{"duplicate":true}').length, 2, 'the others say it is a repeat');
  t.same(
    replicas.flatMap((replica) => replica.handled),
    ['delivery-0001'],
    'the handler ran once in all',
  );

  const again = await sendTestDelivery(replicas[1]!.url, payload, { webhookId: 'delivery-0001' });
  t.same([again.status, again.body], [200, { duplicate: true }], 'a later repeat is not handled either');
  const other = await sendTestDelivery(replicas[2]!.url, payload, { webhookId: 'delivery-0002' });
  t.same(other.body, { handled: true }, 'another delivery is handled');
  t.match(await redis.cli('TTL', 'emotion-hub:webhook-delivery:delivery-0001'), /^8[0-6]\d{3}$/, 'remembered for 24 hours');
});

t.test('WEBHOOK_REDIS_URL configures it too; a delivery whose handler failed is handled on retry', async (t) => {
  const redis = await startRedisServer(t);
  let failing = true;
  const replica = await receiver(t, { env: { WEBHOOK_REDIS_URL: redis.url }, fail: () => failing });
  const payload = fixture('repo-content-update');
  const first = await sendTestDelivery(replica.url, payload, { webhookId: 'delivery-0100' });
  t.equal(first.status, 500);
  failing = false;
  const retry = await sendTestDelivery(replica.url, payload, { webhookId: 'delivery-0100' });
  t.same([retry.status, retry.body], [200, { handled: true }], 'the retry is handled, not dropped as a repeat');
  t.same(replica.handled, ['delivery-0100', 'delivery-0100']);
});

t.test('Redis lost: 503 so the Hub retries later, then de-duplication again once it is back', async (t) => {
  const redis = await startRedisServer(t);
  const replica = await receiver(t, { redisUrl: redis.url });
  const payload = fixture('repo-content-update');
  await sendTestDelivery(replica.url, payload, { webhookId: 'delivery-0200' });
  await redis.stop();
  const during = await sendTestDelivery(replica.url, payload, { webhookId: 'delivery-0201' });
  t.equal(during.status, 503);
  t.match(during.body, { error: /delivery store is unavailable/ });
  t.same(replica.handled, ['delivery-0200'], 'the handler was not run without the check');
  await redis.start();
  // The Hub's retry, until the client has reconnected by itself.
  await eventually('a 200 after Redis is back', async () =>
    (await sendTestDelivery(replica.url, payload, { webhookId: 'delivery-0201' })).status === 200 ? true : undefined,
  );
  const repeat = await sendTestDelivery(replica.url, payload, { webhookId: 'delivery-0200' });
  t.same(repeat.body, { duplicate: true }, 'what was claimed before the outage is still remembered');
  t.same(replica.handled, ['delivery-0200', 'delivery-0201']);
  const lines = replica.log.lines().map((line) => line.msg);
  t.ok(lines.includes('Redis connection webhook-deliveries lost (connection closed); reconnecting'), 'the outage is logged');
  t.ok(lines.includes('Redis connection webhook-deliveries restored'), 'and the recovery');
});

t.test('a receiver whose Redis cannot be reached does not start, and the message hides the password', async (t) => {
  const server = new WebhooksServer({
    port: 0,
    logger: false,
    env: quietEnv,
    print: () => undefined,
    autoStart: false,
    redisUrl: 'redis://:s3cret-pass@127.0.0.1:1/0',
  });
  server.addWebhook('/on_update', () => undefined);
  const error = (await server.launch().catch((e: unknown) => e)) as Error;
  t.match(error.message, /^cannot connect to Redis at redis:\/\/127\.0\.0\.1:1\/0: /);
  t.notMatch(error.message, /s3cret/);
});

t.test('a bad Redis URL is refused when the server is created', async (t) => {
  t.throws(() => new WebhooksServer({ env: quietEnv, autoStart: false, redisUrl: 'http://127.0.0.1:6379' }), {
    name: 'RangeError',
    message: /redisUrl \(or WEBHOOK_REDIS_URL\)/,
  });
});

t.test('without a Redis URL, repeats are handled each time (one receiver needs nothing installed)', async (t) => {
  const replica = await receiver(t);
  const payload = fixture('repo-content-update');
  await sendTestDelivery(replica.url, payload, { webhookId: 'delivery-0300' });
  await sendTestDelivery(replica.url, payload, { webhookId: 'delivery-0300' });
  t.same(replica.handled, ['delivery-0300', 'delivery-0300']);
});
