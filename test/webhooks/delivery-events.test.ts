import t from 'tap';
import type { WebhookContext } from '../../src/webhooks/context.js';
import { DeliveryEvents, type WebhookDelivery } from '../../src/webhooks/delivery-events.js';
import { capturedLogger } from '../support/captured-logger.js';
import { fixture } from './helpers.js';

function delivery(log = capturedLogger().logger): WebhookDelivery {
  const context: WebhookContext = {
    name: 'x',
    webhookId: undefined,
    event: 'repo.config:update',
    receivedAt: new Date(0),
    headers: {},
    rawBody: Buffer.alloc(0),
    log,
  };
  return { payload: fixture('repo-config-update'), context };
}

t.test('listeners by name and wildcard; the same listener twice counts once', (t) => {
  const events = new DeliveryEvents();
  const calls: string[] = [];
  const listener = (): void => void calls.push('named');
  events.on('repo.config:update', listener);
  events.on('repo.config:update', listener);
  events.on('repo.content:update', listener);
  events.on('*', (name) => void calls.push(`* ${name}`));
  t.equal(events.listenerCount, 3);
  events.emit(delivery());
  t.same(calls, ['named', '* repo.config:update']);
  events.off('repo.config:update', listener);
  events.off('repo.config:update', listener);
  events.off('*', () => {});
  t.equal(events.listenerCount, 2);
  events.emit(delivery());
  t.same(calls, ['named', '* repo.config:update', '* repo.config:update']);
  t.end();
});

t.test('a rejecting async listener is logged, not an unhandled rejection', async (t) => {
  const events = new DeliveryEvents();
  const log = capturedLogger();
  let after = false;
  events.on('repo.config:update', async () => {
    throw new Error('async listener bug');
  });
  events.on('repo.config:update', () => void (after = true));
  events.emit(delivery(log.logger));
  await new Promise((resolve) => setImmediate(resolve));
  t.equal(after, true, 'the next listener still ran');
  t.match(log.lines()[0], { msg: 'a webhook event listener failed', err: { message: 'async listener bug' } });
});
