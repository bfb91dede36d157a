import { readFileSync } from 'node:fs';
import t from 'tap';
import { sendTestDelivery } from '../../src/webhooks/send-test-delivery.js';
import { runBuiltCli } from '../support/built-cli.js';
import { fixture } from '../webhooks/helpers.js';
import { ROOT, runScript } from '../webhooks/process.js';

t.test('docs/webhooks-receiver.md shows the example as it is in examples/', (t) => {
  const example = readFileSync(`${ROOT}examples/webhooks-server.mjs`, 'utf8');
  t.ok(readFileSync(`${ROOT}docs/webhooks-receiver.md`, 'utf8').includes(`\`\`\`js\n${example}\`\`\``));
  t.end();
});

// The documented example, run as a new user would: `node examples/webhooks-server.mjs`.
t.test('the documented example starts by itself, prints its URLs and answers like the Hub expects', async (t) => {
  const run = runScript('examples/webhooks-server.mjs', {
    PORT: '0',
    WEBHOOK_SECRET: 'my-secret',
    HF_HUB_DISABLE_EXPERIMENTAL_WARNING: '1',
  });
  t.teardown(() => void run.child.kill());
  const [, base] = await run.waitFor(/Running on local URL: {2}(http:\/\/127\.0\.0\.1:\d+)\n/);
  await run.waitFor(/to setup your webhooks\./);
  t.match(run.stdout(), `  - POST ${base}/webhooks/on_repo_update\n  - POST ${base}/webhooks/discussions\n`);

  const update = await sendTestDelivery(`${base}/webhooks/on_repo_update`, fixture('repo-content-update'), {
    secret: 'my-secret',
    webhookId: '65a14fd933eca76f4639fc84',
  });
  t.same([update.status, update.body], [200, { processed: true }]);
  await run.waitFor(/space Wauplin\/gradio-user-history changed \(delivery 65a14fd933eca76f4639fc84\)/);

  const discussion = await sendTestDelivery(`${base}/webhooks/discussions`, fixture('discussion-created'), { secret: 'my-secret' });
  t.same([discussion.status, discussion.body], [200, null]);
  await run.waitFor(/#19 Update co2 emissions: create/);

  const wrong = await sendTestDelivery(`${base}/webhooks/discussions`, fixture('discussion-created'), { secret: 'not-it' });
  t.same([wrong.status, wrong.body], [403, { error: 'Invalid webhook secret.' }]);
  const missing = await sendTestDelivery(`${base}/webhooks/discussions`, fixture('discussion-created'));
  t.same([missing.status, missing.body], [401, { error: 'x-webhook-secret header not set.' }]);
});

// The test tool a receiver needs, tried as a new user would: the example server, then `hub webhooks send`.
t.test('hub webhooks send delivers to the README example, which verifies the secret', async (t) => {
  const run = runScript('examples/webhooks-server.mjs', {
    PORT: '0',
    WEBHOOK_SECRET: 'my-secret',
    HF_HUB_DISABLE_EXPERIMENTAL_WARNING: '1',
  });
  t.teardown(() => void run.child.kill());
  const [, base] = await run.waitFor(/Running on local URL: {2}(http:\/\/127\.0\.0\.1:\d+)\n/);

  const update = await runBuiltCli(
    ['webhooks', 'send', `${base}/webhooks/on_repo_update`, '--secret', 'my-secret', '--webhook-id', '65b0c0ffee0c0ffee0c0ffee'],
    {},
  );
  t.same([update.code, update.stdout], [0, 'HTTP 200\n{\n  "processed": true\n}\n']);
  await run.waitFor(/space Wauplin\/gradio-user-history changed \(delivery 65b0c0ffee0c0ffee0c0ffee\)/);

  const discussion = await runBuiltCli(['webhooks', 'send', `${base}/webhooks/discussions`, '--event', 'discussion'], {
    WEBHOOK_SECRET: 'my-secret',
  });
  t.same([discussion.code, discussion.stdout], [0, 'HTTP 200\nnull\n']);
  await run.waitFor(/#19 Update co2 emissions: create/);

  const wrong = await runBuiltCli(['webhooks', 'send', `${base}/webhooks/discussions`, '--secret', 'not-it'], {});
  t.equal(wrong.code, 6);
  t.equal(wrong.stdout, 'HTTP 403\n{\n  "error": "Invalid webhook secret."\n}\n');
  t.equal(wrong.stderr, 'Error: The receiver answered HTTP 403.\n');
  const missing = await runBuiltCli(['webhooks', 'send', `${base}/webhooks/discussions`], {});
  t.same([missing.code, missing.stdout], [6, 'HTTP 401\n{\n  "error": "x-webhook-secret header not set."\n}\n']);
});
