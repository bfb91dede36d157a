import t from 'tap';
import { WebhookSecretError } from '../../src/webhooks/errors.js';
import { verifyWebhookSecret } from '../../src/webhooks/secret.js';

t.test('the right secret passes; missing is 401, any other value 403', (t) => {
  t.doesNotThrow(() => verifyWebhookSecret('hook-secret', 'hook-secret'));
  t.doesNotThrow(() => verifyWebhookSecret('ünïcode', 'ünïcode'));
  t.throws(() => verifyWebhookSecret(undefined, 'hook-secret'), { statusCode: 401, message: 'x-webhook-secret header not set.' });
  for (const wrong of ['', 'hook-secre', 'hook-secret ', 'HOOK-SECRET', 'hook-secret-and-more']) {
    t.throws(
      () => verifyWebhookSecret(wrong, 'hook-secret'),
      { statusCode: 403, message: 'Invalid webhook secret.' },
      JSON.stringify(wrong),
    );
  }
  try {
    verifyWebhookSecret('x', 'y');
  } catch (error) {
    t.type(error, WebhookSecretError);
  }
  t.end();
});
