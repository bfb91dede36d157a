import nock from 'nock';
import t from 'tap';
import WebhooksInfo from '../../../../src/cli/commands/webhooks/info.js';
import { HUB, jobWebhookJson, urlWebhookJson, useNock } from '../../../support/hub-fixtures.js';
import { runWebhooksCommand } from '../../../support/run-webhooks-command.js';

useNock(t);

const id = urlWebhookJson.id;

t.test('the whole webhook, secret hidden', async (t) => {
  nock(HUB).get(`/api/settings/webhooks/${id}`).reply(200, { webhook: urlWebhookJson });
  const { exitCode, stdout } = await runWebhooksCommand(WebhooksInfo, [id]);
  t.equal(exitCode, 0);
  t.equal(
    stdout,
    [
      `id       ${id}`,
      'status   enabled',
      `url      ${urlWebhookJson.url}`,
      'watched  user:julien-c, org:HuggingFaceH4',
      'domains  repo, discussion',
      'secret   (set, hidden: pass --show-secret to print it)',
      '',
    ].join('\n'),
  );
});

t.test('--show-secret prints it, in text and in JSON', async (t) => {
  nock(HUB).get(`/api/settings/webhooks/${id}`).twice().reply(200, { webhook: urlWebhookJson });
  t.match((await runWebhooksCommand(WebhooksInfo, [id, '--show-secret'])).stdout, /^secret {3}my-secret$/m);
  const json = JSON.parse((await runWebhooksCommand(WebhooksInfo, [id, '--show-secret', '--json'])).stdout) as Record<string, unknown>;
  t.equal(json.secret, 'my-secret');
  t.notOk('hasSecret' in json);
});

t.test('a job webhook shows its job; --json without --show-secret has no secret', async (t) => {
  nock(HUB).get(`/api/settings/webhooks/${jobWebhookJson.id}`).twice().reply(200, { webhook: jobWebhookJson });
  const text = (await runWebhooksCommand(WebhooksInfo, [jobWebhookJson.id])).stdout;
  t.match(text, /^job {6}\{"dockerImage":"ubuntu",/m);
  t.match(text, /^status {3}disabled$/m);
  t.match(text, /^secret {3}\(none\)$/m);
  const json = JSON.parse((await runWebhooksCommand(WebhooksInfo, [jobWebhookJson.id, '--json'])).stdout) as Record<string, unknown>;
  t.same(json, { ...jobWebhookJson, hasSecret: false });
});

t.test('a missing id argument is a usage error; an unknown id is a hub error', async (t) => {
  const missing = await runWebhooksCommand(WebhooksInfo, []);
  t.equal(missing.exitCode, 2);
  t.match(missing.stderr, /Missing 1 required arg/);
  nock(HUB).get('/api/settings/webhooks/nope').reply(404, { error: 'Webhook not found' }, { 'x-request-id': 'req-9' });
  const unknown = await runWebhooksCommand(WebhooksInfo, ['nope']);
  t.equal(unknown.exitCode, 4);
  t.match(unknown.stderr, /Webhook not found \(HTTP 404 .*request id req-9\)/);
});
