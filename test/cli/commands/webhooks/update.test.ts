import nock from 'nock';
import t from 'tap';
import WebhooksUpdate from '../../../../src/cli/commands/webhooks/update.js';
import { HUB, urlWebhookJson, useNock } from '../../../support/hub-fixtures.js';
import { runWebhooksCommand } from '../../../support/run-webhooks-command.js';

useNock(t);

const id = urlWebhookJson.id;

t.test('--url only: the current watched list is kept, the URL changes', async (t) => {
  const scope = nock(HUB)
    .get(`/api/settings/webhooks/${id}`)
    .reply(200, { webhook: urlWebhookJson })
    .post(`/api/settings/webhooks/${id}`, { url: 'https://example.com/new-hook', watched: urlWebhookJson.watched })
    .reply(200, { webhook: { ...urlWebhookJson, url: 'https://example.com/new-hook' } });
  const { exitCode, stdout } = await runWebhooksCommand(WebhooksUpdate, [id, '--url', 'https://example.com/new-hook']);
  t.equal(exitCode, 0);
  t.equal(stdout, `Updated webhook ${id}\n`);
  t.ok(scope.isDone());
});

t.test('--watch replaces the list in a single POST; --json prints the result', async (t) => {
  nock(HUB)
    .post(`/api/settings/webhooks/${id}`, {
      watched: [{ type: 'dataset', name: 'stanfordnlp/imdb' }],
      domains: ['discussion'],
      secret: 'new',
    })
    .reply(200, {
      webhook: { ...urlWebhookJson, watched: [{ type: 'dataset', name: 'stanfordnlp/imdb' }], domains: ['discussion'], secret: 'new' },
    });
  const { exitCode, stdout } = await runWebhooksCommand(WebhooksUpdate, [
    id,
    '--watch',
    'dataset:stanfordnlp/imdb',
    '--domain',
    'discussion',
    '--secret',
    'new',
    '--json',
  ]);
  t.equal(exitCode, 0);
  const json = JSON.parse(stdout) as Record<string, unknown>;
  t.match(json, { id, domains: ['discussion'], hasSecret: true });
  t.notOk('secret' in json);
});

t.test('nothing to change is a usage error', async (t) => {
  const { exitCode, stderr } = await runWebhooksCommand(WebhooksUpdate, [id]);
  t.equal(exitCode, 2);
  t.match(stderr, /Nothing to update: pass --url, --watch, --domain or --secret\./);
});
