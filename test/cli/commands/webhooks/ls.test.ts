import nock from 'nock';
import t from 'tap';
import WebhooksLs from '../../../../src/cli/commands/webhooks/ls.js';
import { HUB, jobWebhookJson, TOKEN, urlWebhookJson, useNock } from '../../../support/hub-fixtures.js';
import { runWebhooksCommand } from '../../../support/run-webhooks-command.js';
import { testDir } from '../../../support/test-dir.js';

useNock(t);

const list = () =>
  nock(HUB).matchHeader('authorization', `Bearer ${TOKEN}`).get('/api/settings/webhooks').reply(200, [urlWebhookJson, jobWebhookJson]);

t.test('a table: id, url or (job), status, domains, watched', async (t) => {
  list();
  const { exitCode, stdout, stderr } = await runWebhooksCommand(WebhooksLs, []);
  t.equal(exitCode, 0);
  t.equal(
    stdout,
    [
      'ID                        URL                                                        STATUS    DOMAINS           WATCHED',
      `654bbbc16f2ec14d77f109cc  ${urlWebhookJson.url}  enabled   repo, discussion  user:julien-c, org:HuggingFaceH4`,
      '6700f3a1c2d4e5f6a7b8c9d0  (job)                                                      disabled  repo              model:openai-community/gpt2',
      '',
    ].join('\n'),
  );
  t.equal(stderr, '');
  t.notMatch(stdout, /my-secret/);
});

t.test('--json: the webhooks as JSON on stdout only, secrets left out', async (t) => {
  list();
  const { exitCode, stdout } = await runWebhooksCommand(WebhooksLs, ['--json']);
  t.equal(exitCode, 0);
  const webhooks = JSON.parse(stdout) as Record<string, unknown>[];
  t.same(
    webhooks.map((w) => [w.id, w.hasSecret, 'secret' in w]),
    [
      ['654bbbc16f2ec14d77f109cc', true, false],
      ['6700f3a1c2d4e5f6a7b8c9d0', false, false],
    ],
  );
  t.match(webhooks[1], { job: { dockerImage: 'ubuntu' }, disabled: true });
});

t.test('-q: ids only, one per line; an empty list prints nothing', async (t) => {
  list();
  t.equal((await runWebhooksCommand(WebhooksLs, ['-q'])).stdout, '654bbbc16f2ec14d77f109cc\n6700f3a1c2d4e5f6a7b8c9d0\n');
  nock(HUB).get('/api/settings/webhooks').reply(200, []);
  t.equal((await runWebhooksCommand(WebhooksLs, ['--quiet'])).stdout, '');
});

t.test('no webhooks: a sentence, and [] with --json', async (t) => {
  nock(HUB).get('/api/settings/webhooks').twice().reply(200, []);
  t.equal((await runWebhooksCommand(WebhooksLs, [])).stdout, 'No webhooks.\n');
  t.same(JSON.parse((await runWebhooksCommand(WebhooksLs, ['--json'])).stdout), []);
});

t.test('--token wins over HF_TOKEN', async (t) => {
  const scope = nock(HUB).matchHeader('authorization', 'Bearer hf_flag').get('/api/settings/webhooks').reply(200, []);
  t.equal((await runWebhooksCommand(WebhooksLs, ['--token', 'hf_flag'])).exitCode, 0);
  t.ok(scope.isDone());
});

t.test('-q and --json together are a usage error', async (t) => {
  const { exitCode, stderr } = await runWebhooksCommand(WebhooksLs, ['-q', '--json']);
  t.equal(exitCode, 2);
  t.match(stderr, /--quiet=true cannot also be provided when using --json|cannot also be provided/);
});

t.test('hub errors: message and request id on stderr, exit 4, also with --json', async (t) => {
  nock(HUB)
    .get('/api/settings/webhooks')
    .reply(401, { error: 'Invalid credentials in Authorization header' }, { 'x-request-id': 'req-401' });
  const human = await runWebhooksCommand(WebhooksLs, []);
  t.equal(human.exitCode, 4);
  t.equal(human.stdout, '');
  t.equal(
    human.stderr,
    'Error: Invalid credentials in Authorization header (HTTP 401 from GET https://huggingface.co/api/settings/webhooks, request id req-401)\n',
  );
  nock(HUB).get('/api/settings/webhooks').reply(500, { error: 'boom' }, { 'x-request-id': 'req-500' });
  const json = await runWebhooksCommand(WebhooksLs, ['--json']);
  t.equal(json.exitCode, 4, 'oclif would exit 1 in --json mode; the status is kept');
  t.same(JSON.parse(json.stdout), {
    error: {
      message: 'boom (HTTP 500 from GET https://huggingface.co/api/settings/webhooks, request id req-500)',
      exitCode: 4,
      status: 500,
      serverMessage: 'boom',
      requestId: 'req-500',
    },
  });
  t.match(json.stderr, /^Error: boom/);
});

t.test('no token: exit 3 with how to provide one; the hub is unreachable: exit 5', async (t) => {
  const noToken = await runWebhooksCommand(WebhooksLs, [], { env: { HOME: testDir(t, {}) } });
  t.equal(noToken.exitCode, 3);
  t.match(noToken.stderr, /No Hugging Face token found.*--token.*HF_TOKEN/);
  const unreachable = await runWebhooksCommand(WebhooksLs, [], { env: { HF_TOKEN: TOKEN, HF_ENDPOINT: 'http://127.0.0.1:9' } });
  t.equal(unreachable.exitCode, 5);
  t.match(unreachable.stderr, /^Error: Cannot reach the hub at http:\/\/127.0.0.1:9\/api\/settings\/webhooks/);
  const badEndpoint = await runWebhooksCommand(WebhooksLs, [], { env: { HF_TOKEN: TOKEN, HF_ENDPOINT: 'huggingface.co' } });
  t.equal(badEndpoint.exitCode, 3);
  t.match(badEndpoint.stderr, /^Error: HF_ENDPOINT must be an http\(s\) URL/);
});

t.test('HF_HUB_OFFLINE: exit 5 before any token lookup or request; the token never printed', async (t) => {
  const offline = await runWebhooksCommand(WebhooksLs, [], { env: { HF_HUB_OFFLINE: '1', HOME: testDir(t, {}) } });
  t.equal(offline.exitCode, 5);
  t.match(offline.stderr, /^Error: Cannot reach https:\/\/huggingface.co: offline mode is enabled\./);
  const withToken = await runWebhooksCommand(WebhooksLs, ['--token', TOKEN], { env: { TRANSFORMERS_OFFLINE: 'yes' } });
  t.equal(withToken.exitCode, 5);
  t.notMatch(withToken.stderr, TOKEN);
});

t.test('an unknown flag is a usage error (exit 2)', async (t) => {
  const { exitCode, stderr } = await runWebhooksCommand(WebhooksLs, ['--nope']);
  t.equal(exitCode, 2);
  t.match(stderr, /Nonexistent flag: --nope/);
});
