// Thousands of generated requests through Fastify's inject: the same app the server listens with.
import fc from 'fast-check';
import t from 'tap';
import { fixedClock } from '../../src/runtime/clock.js';
import { buildWebhooksApp } from '../../src/webhooks/app.js';
import { DeliveryEvents } from '../../src/webhooks/delivery-events.js';
import { WebhookRegistry } from '../../src/webhooks/registry.js';
import { capturedLogger } from '../support/captured-logger.js';
import {
  countingHandlers,
  deliverAndCheck,
  headersOf,
  requestArb,
  SECRET,
  sendsBody,
  validDelivery,
  type Answer,
  type GeneratedRequest,
} from './robustness-cases.js';

// A small limit keeps the oversized bodies cheap; the real server's 1 MiB is tried over HTTP.
const BODY_LIMIT = 16 * 1024;
const RUNS = 1500;

function webhooksApp() {
  const log = capturedLogger();
  const registry = new WebhookRegistry();
  const calls = countingHandlers((name, handler) => registry.add(name, handler));
  const app = buildWebhooksApp({
    secret: SECRET,
    bodyLimit: BODY_LIMIT,
    requestTimeout: 10_000,
    headersTimeout: 10_000,
    logger: log.logger,
    clock: fixedClock('2026-11-21T06:00:00Z'),
    handlerFor: (name) => registry.get(name),
    events: new DeliveryEvents(),
    landingPage: async () => '<h1>webhooks</h1>',
  });
  const send = async (request: GeneratedRequest): Promise<Answer> => {
    const res = await app.inject({
      method: request.method as 'POST',
      url: request.path.value,
      headers: headersOf(request),
      ...(sendsBody(request) && { payload: Buffer.from(request.body.value) }),
    });
    return { status: res.statusCode, contentType: res.headers['content-type'] as string | undefined, text: res.body };
  };
  return { app, log, calls, send };
}

t.test(`${RUNS} generated requests: documented statuses only, JSON errors, handlers reached exactly by valid deliveries`, async (t) => {
  const { app, log, calls, send } = webhooksApp();
  t.teardown(() => app.close());
  const statuses = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(requestArb({ http: false }, BODY_LIMIT), async (request) => {
      const answer = await deliverAndCheck(request, calls, send);
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    }),
    { numRuns: RUNS },
  );
  t.comment(`statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
  // Each documented outcome was produced, so the generators reach every branch.
  t.same([...statuses.keys()].sort(), [200, 400, 401, 403, 404, 413, 415, 422]);
  t.ok(calls.on_commit > 0 && calls.discussions > 0, 'both handlers ran');
  const after = await app.inject({
    method: 'POST',
    url: validDelivery().path,
    headers: validDelivery().headers,
    payload: validDelivery().body,
  });
  t.equal(after.statusCode, 200, 'a valid delivery is still served afterwards');
  t.notOk(log.text().includes(SECRET), 'the secret never reaches the log');
});
