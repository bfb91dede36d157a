import nock from 'nock';
import t from 'tap';
import { deleteWebhook } from '../../src/hub/delete-webhook.js';
import { disableWebhook } from '../../src/hub/disable-webhook.js';
import { enableWebhook } from '../../src/hub/enable-webhook.js';
import { getWebhook } from '../../src/hub/get-webhook.js';
import { updateWebhook } from '../../src/hub/update-webhook.js';
import { HUB, hubOptions, TOKEN, urlWebhookJson, useNock } from '../support/hub-fixtures.js';

useNock(t);

const id = urlWebhookJson.id;
const one = `/api/settings/webhooks/${id}`;

t.test('every call on one webhook takes its id positionally, beside the options', async (t) => {
  const scope = nock(HUB)
    .matchHeader('authorization', `Bearer ${TOKEN}`)
    .get(one)
    .reply(200, { webhook: urlWebhookJson })
    .post(`${one}/enable`)
    .reply(200, { webhook: { ...urlWebhookJson, disabled: false } })
    .post(`${one}/disable`)
    .reply(200, { webhook: { ...urlWebhookJson, disabled: true } })
    .post(one, { url: 'https://example.com/new', watched: [{ type: 'model', name: 'gpt2' }] })
    .reply(200, { webhook: { ...urlWebhookJson, url: 'https://example.com/new' } })
    .delete(one)
    .reply(204);
  t.equal((await getWebhook(id, hubOptions)).id, id);
  t.equal((await enableWebhook(id, { token: TOKEN })).disabled, false);
  t.equal((await disableWebhook(id, hubOptions)).disabled, true);
  t.equal(
    (await updateWebhook(id, { ...hubOptions, url: 'https://example.com/new', watched: [{ type: 'model', name: 'gpt2' }] })).url,
    'https://example.com/new',
  );
  t.equal(await deleteWebhook(id, hubOptions), undefined);
  t.ok(scope.isDone());
});

t.test('the options are optional after a positional id; the token then comes from no environment', async (t) => {
  const saved = process.env.HF_TOKEN;
  process.env.HF_TOKEN = 'hf_fromEnv';
  t.teardown(() => {
    if (saved === undefined) delete process.env.HF_TOKEN;
    else process.env.HF_TOKEN = saved;
  });
  // nock has no interceptor: a request would fail as a HubConnectionError, not a HubConfigError.
  await t.rejects(enableWebhook(id), { name: 'HubConfigError', message: /pass `accessToken`/ });
});

t.test('updateWebhook with a positional id reads the current watched list when it is not given', async (t) => {
  const scope = nock(HUB)
    .get(one)
    .reply(200, { webhook: urlWebhookJson })
    .post(one, { url: 'https://example.com/new', watched: urlWebhookJson.watched as never })
    .reply(200, { webhook: urlWebhookJson });
  await updateWebhook(id, { ...hubOptions, url: 'https://example.com/new' });
  t.ok(scope.isDone());
});

t.test('no id either way: an error that shows both forms, before any request', async (t) => {
  const calls = [getWebhook, enableWebhook, disableWebhook, deleteWebhook] as const;
  for (const call of calls) {
    await t.rejects((call as (p: unknown) => Promise<unknown>)(hubOptions), {
      name: 'WebhookInputError',
      message: /positionally or as `webhookId`: enableWebhook\('abc', \{ token \}\)/,
    });
  }
  await t.rejects(enableWebhook('', hubOptions), { name: 'WebhookInputError' });
});
