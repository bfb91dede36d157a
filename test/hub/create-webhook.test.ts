import nock from 'nock';
import t from 'tap';
import { createWebhook } from '../../src/hub/create-webhook.js';
import { HubApiError, WebhookInputError } from '../../src/hub/errors.js';
import type { WatchedItem } from '../../src/hub/types.js';
import { HUB, hubOptions, jobWebhookJson, TOKEN, urlWebhookCreateBody, urlWebhookJson, useNock } from '../support/hub-fixtures.js';

useNock(t);

t.test('POSTs watched, domains, secret and url with the Bearer token, and reads the webhook back', async (t) => {
  const scope = nock(HUB, { reqheaders: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' } })
    .post('/api/settings/webhooks', urlWebhookCreateBody)
    .reply(200, { webhook: urlWebhookJson });
  const webhook = await createWebhook({
    ...hubOptions,
    ...urlWebhookCreateBody,
    watched: [...urlWebhookCreateBody.watched] as WatchedItem[],
    domains: ['repo', 'discussion'],
  });
  t.same(webhook, {
    id: '654bbbc16f2ec14d77f109cc',
    url: urlWebhookJson.url,
    watched: urlWebhookJson.watched,
    domains: ['repo', 'discussion'],
    secret: 'my-secret',
    disabled: false,
  });
  t.ok(scope.isDone());
});

t.test('a job webhook sends jobSourceId and leaves out what was not given', async (t) => {
  const scope = nock(HUB)
    .post(
      '/api/settings/webhooks',
      (body) => t.same(body, { watched: [{ type: 'model', name: 'openai-community/gpt2' }], jobSourceId: 'job-123' }) === true,
    )
    .reply(200, { webhook: jobWebhookJson });
  const webhook = await createWebhook({ ...hubOptions, jobId: 'job-123', watched: [{ type: 'model', name: 'openai-community/gpt2' }] });
  t.equal(webhook.url, undefined);
  t.match(webhook.job, { dockerImage: 'ubuntu', flavor: 'cpu-basic' });
  t.ok(scope.isDone());
});

t.test('url and jobId: exactly one, checked before any request', async (t) => {
  const watched = [{ type: 'model', name: 'gpt2' }] as const;
  await t.rejects(createWebhook({ ...hubOptions, url: 'https://example.com/hook', jobId: 'job-1', watched: [...watched] }), {
    name: 'WebhookInputError',
    message: 'Set `url` or `jobId`, not both.',
  });
  const neither = await createWebhook({ ...hubOptions, watched: [...watched] }).catch((error: unknown) => error);
  t.type(neither, WebhookInputError);
  t.match(neither, { message: /Missing target: set `url`.*or `jobId`/ });
  await t.rejects(createWebhook({ ...hubOptions, jobId: ' ', watched: [...watched] }), { message: 'The job id is empty.' });
  t.same(nock.pendingMocks(), []);
});

t.test('a hub rejection is a HubApiError with the status, message and request id', async (t) => {
  nock(HUB)
    .post('/api/settings/webhooks')
    .reply(400, { error: 'Invalid watched item: repo not found' }, { 'x-request-id': 'Root=1-6540-abc' });
  const error = await createWebhook({ ...hubOptions, url: 'https://example.com/h', watched: [{ type: 'model', name: 'nope/nope' }] }).catch(
    (e: unknown) => e,
  );
  t.type(error, HubApiError);
  t.match(error, { status: 400, serverMessage: 'Invalid watched item: repo not found', requestId: 'Root=1-6540-abc', method: 'POST' });
  t.match(
    (error as Error).message,
    /^Invalid watched item: repo not found \(HTTP 400 from POST https:\/\/huggingface.co\/api\/settings\/webhooks, request id Root=1-6540-abc\)$/,
  );
});
