// Commands against a faulty hub: one message on stderr, the documented status, JSON only with --json.
import nock from 'nock';
import t from 'tap';
import WebhooksInfo from '../../../../src/cli/commands/webhooks/info.js';
import WebhooksLs from '../../../../src/cli/commands/webhooks/ls.js';
import { HUB, TOKEN, urlWebhookJson, useNock } from '../../../support/hub-fixtures.js';
import { runWebhooksCommand } from '../../../support/run-webhooks-command.js';

useNock(t);

const id = urlWebhookJson.id;
const HTML = '<html><body><h1>502 Bad Gateway</h1></body></html>';

t.test('a 502 HTML page: exit 4, the status and request id on stderr, no HTML, nothing on stdout', async (t) => {
  nock(HUB).get(`/api/settings/webhooks/${id}`).reply(502, HTML, { 'content-type': 'text/html', 'x-request-id': 'req-502' });
  const { exitCode, stdout, stderr } = await runWebhooksCommand(WebhooksInfo, [id]);
  t.equal(exitCode, 4);
  t.equal(stdout, '');
  t.equal(stderr, `Error: no message (HTTP 502 from GET ${HUB}/api/settings/webhooks/${id}, request id req-502)\n`);
});

t.test('a 429 with --json: exit 4, only the JSON error on stdout', async (t) => {
  nock(HUB).get('/api/settings/webhooks').reply(429, { error: 'Rate limited' }, { 'retry-after': '30', 'x-request-id': 'req-429' });
  const { exitCode, stdout, stderr } = await runWebhooksCommand(WebhooksLs, ['--json']);
  t.equal(exitCode, 4);
  t.same(JSON.parse(stdout), {
    error: {
      message: `Rate limited (HTTP 429 from GET ${HUB}/api/settings/webhooks, request id req-429)`,
      exitCode: 4,
      status: 429,
      serverMessage: 'Rate limited',
      requestId: 'req-429',
    },
  });
  t.match(stderr, /^Error: Rate limited \(HTTP 429/);
});

t.test('a list of the wrong shape: exit 4 and what is wrong', async (t) => {
  nock(HUB).get('/api/settings/webhooks').reply(200, { webhooks: [] });
  const { exitCode, stderr } = await runWebhooksCommand(WebhooksLs, []);
  t.equal(exitCode, 4);
  t.match(stderr, /^Error: unexpected answer from the hub: the webhook list is not an array \(HTTP 200/);
});

t.test('a refused or reset connection: exit 5, with and without --json', async (t) => {
  nock(HUB)
    .get('/api/settings/webhooks')
    .replyWithError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:443'), { code: 'ECONNREFUSED' }));
  const refused = await runWebhooksCommand(WebhooksLs, []);
  t.equal(refused.exitCode, 5);
  t.equal(refused.stdout, '');
  t.match(refused.stderr, new RegExp(`^Error: Cannot reach the hub at ${HUB}/api/settings/webhooks: `));
  nock(HUB)
    .get(`/api/settings/webhooks/${id}`)
    .replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
  const reset = await runWebhooksCommand(WebhooksInfo, [id, '--json']);
  t.equal(reset.exitCode, 5);
  t.match(JSON.parse(reset.stdout), { error: { exitCode: 5, message: /^Cannot reach the hub/ } });
});

t.test('a hub that echoes the token: it reaches neither stderr nor stdout', async (t) => {
  nock(HUB)
    .get('/api/settings/webhooks')
    .reply(401, { error: `Invalid token: Bearer ${TOKEN}` });
  const { exitCode, stdout, stderr } = await runWebhooksCommand(WebhooksLs, ['--json']);
  t.equal(exitCode, 4);
  t.notMatch(stdout + stderr, TOKEN);
  t.match(stderr, /Invalid token: Bearer \[token\]/);
});
