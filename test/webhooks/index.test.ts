import t from 'tap';
import * as pkg from '../../src/index.js';

t.test('the package entry exports the receiving library', (t) => {
  for (const name of [
    'WebhooksServer',
    'webhookEndpoint',
    'defaultWebhooksServer',
    'readJobWebhook',
    'sendTestDelivery',
    'validateWebhookPayload',
    'parseWebhookPayload',
    'verifyWebhookSecret',
    'WebhookPayloadError',
    'WebhookSecretError',
    'WebhookRegistrationError',
    'WebhookDeliveryError',
  ] as const) {
    t.equal(typeof pkg[name], 'function', name);
  }
  t.equal(pkg.WEBHOOK_SECRET_HEADER, 'x-webhook-secret');
  t.equal(typeof pkg.WebhookPayloadSchema, 'object');
  t.end();
});
