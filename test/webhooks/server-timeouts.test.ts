// WebhooksServer: slow clients are cut after the request and header timeouts.
import { connect } from 'node:net';
import t from 'tap';
import { fixedClock } from '../../src/runtime/clock.js';
import { sendTestDelivery } from '../../src/webhooks/send-test-delivery.js';
import { buildWebhooksApp } from '../../src/webhooks/app.js';
import { DeliveryEvents } from '../../src/webhooks/delivery-events.js';
import { resolveOptions } from '../../src/webhooks/options.js';
import { capturedLogger } from '../support/captured-logger.js';
import { fixture } from './helpers.js';
import { SECRET, start } from './launched-server.js';

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
