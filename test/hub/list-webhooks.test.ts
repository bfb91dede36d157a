import nock from 'nock';
import t from 'tap';
import { listWebhooks } from '../../src/hub/list-webhooks.js';
import { HUB, hubOptions, jobWebhookJson, TOKEN, urlWebhookJson, useNock } from '../support/hub-fixtures.js';

useNock(t);

t.test('GETs the bare array and reads every webhook', async (t) => {
  nock(HUB).matchHeader('authorization', `Bearer ${TOKEN}`).get('/api/settings/webhooks').reply(200, [urlWebhookJson, jobWebhookJson]);
  const webhooks = await listWebhooks(hubOptions);
  t.same(
    webhooks.map((w) => [w.id, w.url ?? '(job)', w.disabled]),
    [
      ['654bbbc16f2ec14d77f109cc', urlWebhookJson.url, false],
      ['6700f3a1c2d4e5f6a7b8c9d0', '(job)', true],
    ],
  );
  t.notOk('createdAt' in webhooks[0]!, 'keys the client does not know are dropped');
});

t.test('an empty list is an empty array', async (t) => {
  nock(HUB).get('/api/settings/webhooks').reply(200, []);
  t.same(await listWebhooks(hubOptions), []);
});

t.test('a 401 and a 500 are HubApiErrors', async (t) => {
  nock(HUB).get('/api/settings/webhooks').reply(401, { error: 'Invalid credentials in Authorization header' }, { 'x-request-id': 'req-1' });
  await t.rejects(listWebhooks(hubOptions), {
    name: 'HubApiError',
    status: 401,
    serverMessage: 'Invalid credentials in Authorization header',
    requestId: 'req-1',
  });
  nock(HUB).get('/api/settings/webhooks').reply(500, 'upstream exploded');
  await t.rejects(listWebhooks(hubOptions), { name: 'HubApiError', status: 500, serverMessage: 'upstream exploded', requestId: undefined });
});

t.test('an answer that is not an array is a HubApiError, not a crash later', async (t) => {
  nock(HUB).get('/api/settings/webhooks').reply(200, { webhooks: [] }, { 'x-request-id': 'req-2' });
  await t.rejects(listWebhooks(hubOptions), {
    status: 200,
    requestId: 'req-2',
    message: /unexpected answer from the hub: the webhook list is not an array/,
  });
});
