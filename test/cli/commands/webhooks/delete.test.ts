import nock from 'nock';
import t from 'tap';
import WebhooksDelete from '../../../../src/cli/commands/webhooks/delete.js';
import { HUB, TOKEN, useNock } from '../../../support/hub-fixtures.js';
import { answeringTerminal, runWebhooksCommand } from '../../../support/run-webhooks-command.js';

useNock(t);

const id = '654bbbc16f2ec14d77f109cc';
const deletion = () => nock(HUB).matchHeader('authorization', `Bearer ${TOKEN}`).delete(`/api/settings/webhooks/${id}`).reply(200, {});

t.test('answering yes deletes', async (t) => {
  const scope = deletion();
  const terminal = answeringTerminal(true);
  const { exitCode, stdout } = await runWebhooksCommand(WebhooksDelete, [id], { terminal });
  t.equal(exitCode, 0);
  t.equal(stdout, `Deleted webhook ${id}\n`);
  t.same(terminal.asked, [`Delete webhook ${id}? This cannot be undone.`]);
  t.ok(scope.isDone());
});

t.test('answering no exits 1 and deletes nothing', async (t) => {
  const scope = deletion();
  const { exitCode, stdout, stderr } = await runWebhooksCommand(WebhooksDelete, [id], { terminal: answeringTerminal(false) });
  t.equal(exitCode, 1);
  t.equal(stdout, '');
  t.equal(stderr, `Error: Webhook ${id} was not deleted.\n`);
  t.notOk(scope.isDone(), 'no DELETE was sent');
});

t.test('no terminal and no --yes: refused with exit 2, nothing sent', async (t) => {
  const scope = deletion();
  const { exitCode, stderr } = await runWebhooksCommand(WebhooksDelete, [id]);
  t.equal(exitCode, 2);
  t.match(stderr, /Refusing to delete webhook .* there is no terminal to ask on\. Pass --yes to delete it\./);
  t.notOk(scope.isDone());
});

t.test('--json never prompts, even on a terminal', async (t) => {
  const terminal = answeringTerminal(true);
  const { exitCode, stdout } = await runWebhooksCommand(WebhooksDelete, [id, '--json'], { terminal });
  t.equal(exitCode, 2);
  t.match(JSON.parse(stdout), { error: { exitCode: 2, message: /Pass --yes/ } });
  t.same(terminal.asked, []);
});

t.test('-y / --yes skip the question', async (t) => {
  deletion();
  t.equal((await runWebhooksCommand(WebhooksDelete, [id, '-y'])).stdout, `Deleted webhook ${id}\n`);
  deletion();
  const json = await runWebhooksCommand(WebhooksDelete, [id, '--yes', '--json']);
  t.same(JSON.parse(json.stdout), { id, deleted: true });
});

t.test('a hub error after confirming exits 4', async (t) => {
  nock(HUB).delete(`/api/settings/webhooks/${id}`).reply(403, { error: 'You cannot delete this webhook' }, { 'x-request-id': 'r403' });
  const { exitCode, stderr } = await runWebhooksCommand(WebhooksDelete, [id, '--yes']);
  t.equal(exitCode, 4);
  t.match(stderr, /You cannot delete this webhook .*request id r403/);
});
