import nock from 'nock';
import t from 'tap';
import WebhooksDisable from '../../../../src/cli/commands/webhooks/disable.js';
import WebhooksEnable from '../../../../src/cli/commands/webhooks/enable.js';
import { HUB, TOKEN, urlWebhookJson, useNock } from '../../../support/hub-fixtures.js';
import { runWebhooksCommand } from '../../../support/run-webhooks-command.js';

useNock(t);

const id = urlWebhookJson.id;

for (const [command, action, disabled, past] of [
  [WebhooksDisable, 'disable', true, 'Disabled'],
  [WebhooksEnable, 'enable', false, 'Enabled'],
] as const) {
  t.test(`${action}: POST …/${action}, one line with the id, JSON with --json`, async (t) => {
    nock(HUB)
      .matchHeader('authorization', `Bearer ${TOKEN}`)
      .post(`/api/settings/webhooks/${id}/${action}`)
      .twice()
      .reply(200, { webhook: { ...urlWebhookJson, disabled } });
    const human = await runWebhooksCommand(command, [id]);
    t.equal(human.exitCode, 0);
    t.equal(human.stdout, `${past} webhook ${id}\n`);
    const json = await runWebhooksCommand(command, [id, '--json']);
    t.match(JSON.parse(json.stdout), { id, disabled });
  });

  t.test(`${action}: an unknown id exits 4 with the hub's message`, async (t) => {
    nock(HUB).post(`/api/settings/webhooks/nope/${action}`).reply(404, { error: 'Webhook not found' }, { 'x-request-id': 'r1' });
    const { exitCode, stderr } = await runWebhooksCommand(command, ['nope']);
    t.equal(exitCode, 4);
    t.match(stderr, /^Error: Webhook not found .*request id r1/);
  });
}
