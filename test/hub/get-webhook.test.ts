import nock from 'nock';
import t from 'tap';
import { getWebhook } from '../../src/hub/get-webhook.js';
import { HUB, hubOptions, TOKEN, urlWebhookJson, useNock } from '../support/hub-fixtures.js';

useNock(t);

t.test('GETs one webhook and unwraps {"webhook": …}', async (t) => {
  nock(HUB)
    .matchHeader('authorization', `Bearer ${TOKEN}`)
    .get(`/api/settings/webhooks/${urlWebhookJson.id}`)
    .reply(200, { webhook: urlWebhookJson });
  const webhook = await getWebhook({ ...hubOptions, webhookId: urlWebhookJson.id });
  t.equal(webhook.id, urlWebhookJson.id);
  t.equal(webhook.secret, 'my-secret');
});

t.test('the id is URL-encoded, so it cannot reach another route', async (t) => {
  const scope = nock(HUB).get('/api/settings/webhooks/..%2Fenable%3Fx%3D1').reply(404, { error: 'Webhook not found' });
  await t.rejects(getWebhook({ ...hubOptions, webhookId: '../enable?x=1' }), {
    name: 'HubApiError',
    status: 404,
    serverMessage: 'Webhook not found',
  });
  t.ok(scope.isDone());
});

t.test('an unknown id is a 404 HubApiError', async (t) => {
  nock(HUB).get('/api/settings/webhooks/nope').reply(404, { error: 'Webhook not found' }, { 'x-request-id': 'req-404' });
  await t.rejects(getWebhook({ ...hubOptions, webhookId: 'nope' }), {
    status: 404,
    requestId: 'req-404',
    message: /^Webhook not found \(HTTP 404 from GET/,
  });
});
