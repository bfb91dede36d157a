import nock from 'nock';
import t from 'tap';
import { deleteWebhook } from '../../src/hub/delete-webhook.js';
import { HUB, hubOptions, TOKEN, useNock } from '../support/hub-fixtures.js';

useNock(t);

t.test('DELETEs the webhook and ignores whatever body comes back', async (t) => {
  const scope = nock(HUB)
    .matchHeader('authorization', `Bearer ${TOKEN}`)
    .delete('/api/settings/webhooks/654bbbc16f2ec14d77f109cc')
    .reply(200, 'OK');
  t.equal(await deleteWebhook({ ...hubOptions, webhookId: '654bbbc16f2ec14d77f109cc' }), undefined);
  t.ok(scope.isDone());
});

t.test('a 404 is a HubApiError', async (t) => {
  nock(HUB).delete('/api/settings/webhooks/gone').reply(404, { error: 'Webhook not found' }, { 'x-request-id': 'req-del' });
  await t.rejects(deleteWebhook({ ...hubOptions, webhookId: 'gone' }), { name: 'HubApiError', status: 404, requestId: 'req-del' });
});
