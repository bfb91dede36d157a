import nock from 'nock';
import t from 'tap';
import { updateWebhook } from '../../src/hub/update-webhook.js';
import { HUB, hubOptions, TOKEN, urlWebhookJson, useNock } from '../support/hub-fixtures.js';

useNock(t);

const id = urlWebhookJson.id;

t.test('with watched given: one POST (not PUT) carrying only the given fields', async (t) => {
  const scope = nock(HUB)
    .matchHeader('authorization', `Bearer ${TOKEN}`)
    .post(`/api/settings/webhooks/${id}`, { watched: [{ type: 'model', name: 'gpt2' }], domains: ['repo'] })
    .reply(200, { webhook: { ...urlWebhookJson, watched: [{ type: 'model', name: 'gpt2' }], domains: ['repo'] } });
  const webhook = await updateWebhook({ ...hubOptions, webhookId: id, watched: [{ type: 'model', name: 'gpt2' }], domains: ['repo'] });
  t.same(webhook.watched, [{ type: 'model', name: 'gpt2' }]);
  t.ok(scope.isDone());
});

t.test('without watched: the current list is read and sent back, so it is never emptied', async (t) => {
  const scope = nock(HUB)
    .get(`/api/settings/webhooks/${id}`)
    .reply(200, { webhook: urlWebhookJson })
    .post(`/api/settings/webhooks/${id}`, { watched: urlWebhookJson.watched, url: 'https://example.com/new-hook', secret: 'rotated' })
    .reply(200, { webhook: { ...urlWebhookJson, url: 'https://example.com/new-hook', secret: 'rotated' } });
  const webhook = await updateWebhook({ ...hubOptions, webhookId: id, url: 'https://example.com/new-hook', secret: 'rotated' });
  t.equal(webhook.url, 'https://example.com/new-hook');
  t.ok(scope.isDone());
});

t.test('bad input fails before any request; an unknown id fails on the read', async (t) => {
  await t.rejects(updateWebhook({ ...hubOptions, webhookId: id, url: 'not a url' }), { name: 'WebhookInputError' });
  await t.rejects(updateWebhook({ ...hubOptions, webhookId: '', url: 'https://example.com' }), { message: /^A webhook id is required/ });
  nock(HUB).get('/api/settings/webhooks/gone').reply(404, { error: 'Webhook not found' });
  await t.rejects(updateWebhook({ ...hubOptions, webhookId: 'gone', url: 'https://example.com' }), { name: 'HubApiError', status: 404 });
});
