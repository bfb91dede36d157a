import { createServer } from 'node:net';
import t from 'tap';
import { sendTestDelivery } from '../../src/webhooks/send-test-delivery.js';
import { fixture } from './helpers.js';
import { runScript } from './process.js';

const SCRIPT = 'test/fixtures/webhooks/two-handlers.mjs';
const env = { PORT: '0', HOST: '127.0.0.1', WEBHOOK_SECRET: 'proc-secret', HF_HUB_DISABLE_EXPERIMENTAL_WARNING: '1' };

t.test('a script that registers two handlers and ends starts the server, prints its URLs and serves', async (t) => {
  const run = runScript(SCRIPT, env);
  t.teardown(() => void run.child.kill());
  const [, base] = await run.waitFor(/Running on local URL: {2}(http:\/\/127\.0\.0\.1:\d+)\n/);
  await run.waitFor(/to setup your webhooks\./);
  t.match(
    run.stdout(),
    `Webhooks are correctly setup and ready to use:\n  - POST ${base}/webhooks/on_update\n  - POST ${base}/webhooks/explicit_name\n`,
  );
  t.match(run.stdout(), 'Webhook secret is correctly defined.');

  const ok = await sendTestDelivery(`${base}/webhooks/on_update`, fixture('repo-content-update'), {
    secret: 'proc-secret',
    webhookId: 'f00dfeed',
  });
  t.same([ok.status, ok.body], [200, { ok: true, repo: 'Wauplin/gradio-user-history' }]);
  await run.waitFor(/delivery f00dfeed: repo\.content:update on Wauplin\/gradio-user-history/);
  const explicit = await sendTestDelivery(`${base}/webhooks/explicit_name`, fixture('discussion-created'), { secret: 'proc-secret' });
  t.same([explicit.status, explicit.body], [200, null]);
  const wrong = await sendTestDelivery(`${base}/webhooks/on_update`, fixture('repo-content-update'), { secret: 'guess' });
  t.same([wrong.status, wrong.body], [403, { error: 'Invalid webhook secret.' }]);
  t.notMatch(run.stdout() + run.stderr(), 'guess', 'the wrong secret is not logged');
  t.equal(run.child.exitCode, null, 'still running');
});

t.test('the experimental warning shows unless silenced', async (t) => {
  const run = runScript(SCRIPT, { ...env, HF_HUB_DISABLE_EXPERIMENTAL_WARNING: '' });
  t.teardown(() => void run.child.kill());
  await run.waitFor(/to setup your webhooks\./);
  t.match(run.stderr(), "ExperimentalWarning: 'WebhooksServer' is experimental");
  t.equal(run.stderr().split('is experimental').length - 1, 1, 'once');
});

t.test('a port already taken: a clear message and exit status 1', async (t) => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  t.teardown(() => void blocker.close());
  const port = (blocker.address() as { port: number }).port;
  const run = runScript(SCRIPT, { ...env, PORT: String(port) });
  t.teardown(() => void run.child.kill());
  t.equal(await run.exited, 1);
  t.match(run.stderr(), /The webhooks server could not start: .*EADDRINUSE/);
});
