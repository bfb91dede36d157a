import nock from 'nock';
import t from 'tap';
import WebhooksUpdate from '../../../../src/cli/commands/webhooks/update.js';
import WebhooksCreate from '../../../../src/cli/commands/webhooks/create.js';
import { HUB, jobWebhookJson, TOKEN, urlWebhookJson, useNock, urlWebhookCreateBody } from '../../../support/hub-fixtures.js';
import { runWebhooksCommand } from '../../../support/run-webhooks-command.js';
import { testDir } from '../../../support/test-dir.js';

useNock(t);

t.test('--url, repeated --watch and --domain, --secret: one POST with exactly that body', async (t) => {
  const scope = nock(HUB)
    .matchHeader('authorization', `Bearer ${TOKEN}`)
    .post('/api/settings/webhooks', urlWebhookCreateBody)
    .reply(200, { webhook: urlWebhookJson });
  const argv = [
    '--url',
    urlWebhookJson.url!,
    '--watch',
    'user:julien-c',
    '--watch',
    'org:HuggingFaceH4',
    '--domain',
    'repo',
    '--domain',
    'discussion',
    '--secret',
    'my-secret',
  ];
  const { exitCode, stdout } = await runWebhooksCommand(WebhooksCreate, argv);
  t.equal(exitCode, 0);
  t.equal(stdout, `Created webhook ${urlWebhookJson.id}\n`);
  t.ok(scope.isDone());
});

t.test('--job-id sends jobSourceId; --json prints the webhook', async (t) => {
  nock(HUB)
    .post('/api/settings/webhooks', { watched: [{ type: 'model', name: 'openai-community/gpt2' }], jobSourceId: 'job-42' })
    .reply(200, { webhook: jobWebhookJson });
  const { exitCode, stdout } = await runWebhooksCommand(WebhooksCreate, [
    '--job-id',
    'job-42',
    '--watch',
    'model:openai-community/gpt2',
    '--json',
  ]);
  t.equal(exitCode, 0);
  t.same(JSON.parse(stdout), { ...jobWebhookJson, hasSecret: false });
});

t.test('usage errors exit 2 and send nothing', async (t) => {
  const cases: [string[], RegExp][] = [
    [['--url', 'https://e.x/h', '--job-id', 'j', '--watch', 'model:gpt2'], /Provide either --url or --job-id, not both\./],
    [['--watch', 'model:gpt2'], /Provide either --url \(the hub POSTs payloads there\) or --job-id/],
    [['--url', 'https://e.x/h'], /Missing required flag watch/],
    [
      ['--url', 'https://e.x/h', '--watch', 'gpt2'],
      /Invalid --watch value "gpt2": expected type:name \(e.g. model:gpt2\)\. Valid types: dataset, model, org, space, user\./,
    ],
    [['--url', 'https://e.x/h', '--watch', 'model:'], /Invalid --watch value "model:"/],
    [
      ['--url', 'https://e.x/h', '--watch', 'repo:gpt2'],
      /Invalid --watch type "repo" in "repo:gpt2"\. Valid types: dataset, model, org, space, user\./,
    ],
    [
      ['--url', 'https://e.x/h', '--watch', 'model:gpt2', '--domain', 'discussions'],
      /Expected --domain=discussions to be one of: repo, discussion/,
    ],
    [['--url', 'not-a-url', '--watch', 'model:gpt2'], /The webhook URL must be an http\(s\) URL, got "not-a-url"\./],
  ];
  for (const [argv, message] of cases) {
    const { exitCode, stderr, stdout } = await runWebhooksCommand(WebhooksCreate, argv);
    t.equal(exitCode, 2, argv.join(' '));
    t.match(stderr, message);
    t.equal(stdout, '');
  }
  const json = await runWebhooksCommand(WebhooksCreate, ['--watch', 'bad', '--url', 'https://e.x/h', '--json']);
  t.equal(json.exitCode, 2);
  t.match(JSON.parse(json.stdout), { error: { exitCode: 2, message: /Invalid --watch value "bad"/ } });
});

t.test('bad input is a usage error with or without a token: it is checked before the token is looked up', async (t) => {
  const noToken = { env: { HOME: testDir(t, {}) } };
  const created = await runWebhooksCommand(WebhooksCreate, ['--url', 'not-a-url', '--watch', 'model:gpt2'], noToken);
  t.equal(created.exitCode, 2);
  t.match(created.stderr, /The webhook URL must be an http\(s\) URL/);
  const updated = await runWebhooksCommand(WebhooksUpdate, ['abc', '--url', 'ftp://x'], noToken);
  t.equal(updated.exitCode, 2);
  t.match(updated.stderr, /The webhook URL must be an http\(s\) URL/);
});
