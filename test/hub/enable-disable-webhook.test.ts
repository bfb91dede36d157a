import nock from 'nock';
import t from 'tap';
import { disableWebhook } from '../../src/hub/disable-webhook.js';
import { enableWebhook } from '../../src/hub/enable-webhook.js';
import { HUB, hubOptions, TOKEN, urlWebhookJson, useNock } from '../support/hub-fixtures.js';

useNock(t);

const id = urlWebhookJson.id;

for (const [name, call, disabled] of [
  ['disable', disableWebhook, true],
  ['enable', enableWebhook, false],
] as const) {
  t.test(`${name}: POST …/${name} with no body, returns the webhook with disabled=${disabled}`, async (t) => {
    const scope = nock(HUB)
      .matchHeader('authorization', `Bearer ${TOKEN}`)
      .post(`/api/settings/webhooks/${id}/${name}`, (body) => body === '' || body === undefined || Object.keys(body).length === 0)
      .reply(200, { webhook: { ...urlWebhookJson, disabled } });
    const webhook = await call({ ...hubOptions, webhookId: id });
    t.equal(webhook.disabled, disabled);
    t.ok(scope.isDone());
  });

  t.test(`${name}: a 403 carries the X-Error-Message header`, async (t) => {
    nock(HUB)
      .post(`/api/settings/webhooks/${id}/${name}`)
      .reply(403, '', { 'x-error-message': 'Not your webhook', 'x-request-id': 'req-403' });
    await t.rejects(call({ ...hubOptions, webhookId: id }), {
      name: 'HubApiError',
      status: 403,
      serverMessage: 'Not your webhook',
      requestId: 'req-403',
    });
  });
}
