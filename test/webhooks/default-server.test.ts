import t from 'tap';
import { defaultWebhooksServer, webhookEndpoint } from '../../src/webhooks/default-server.js';
import { sendTestDelivery } from '../../src/webhooks/send-test-delivery.js';
import { fixture } from './helpers.js';

// The shared server reads its settings from the environment on first use.
process.env.PORT = '0';
process.env.HOST = '127.0.0.1';
process.env.WEBHOOK_SECRET = 'shared-secret';
process.env.HF_HUB_DISABLE_EXPERIMENTAL_WARNING = '1';

t.test('webhookEndpoint registers on one shared server, named by function or explicitly', async (t) => {
  const logs: string[] = [];
  const log = console.log;
  console.log = (line: string) => void logs.push(line);
  t.teardown(() => {
    console.log = log;
  });
  const first = webhookEndpoint(async function trigger_training(payload) {
    return { training: payload.repo.name };
  });
  const second = webhookEndpoint('/explicit_name', () => 'explicit');
  t.equal(first.server, second.server, 'several handlers share one server');
  t.equal(first.server, defaultWebhooksServer());
  t.same([first.path, second.path], ['/webhooks/trigger_training', '/webhooks/explicit_name']);
  t.throws(() => webhookEndpoint('/trigger_training', () => 1), { message: /already exists/ });

  const launched = await defaultWebhooksServer().launch();
  t.teardown(() => launched.close());
  t.equal((await defaultWebhooksServer().launch()).url, launched.url, 'it starts once');
  t.match(logs.join('\n'), `  - POST ${launched.url}/webhooks/trigger_training\n  - POST ${launched.url}/webhooks/explicit_name`);
  const res = await sendTestDelivery(`${launched.url}/webhooks/trigger_training`, fixture('discussion-created'), {
    secret: 'shared-secret',
  });
  t.same([res.status, res.body], [200, { training: 'gpt2' }]);
  t.equal((await sendTestDelivery(`${launched.url}/webhooks/explicit_name`, fixture('discussion-created'))).status, 401);
});
