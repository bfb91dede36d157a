import t from 'tap';
import { WebhookPayloadError, WebhookSecretError } from '../../src/webhooks/errors.js';
import { readJobWebhook } from '../../src/webhooks/job-payload.js';
import { fixtureText } from './helpers.js';

const env = {
  WEBHOOK_PAYLOAD: fixtureText('repo-content-update'),
  WEBHOOK_REPO_ID: 'Wauplin/gradio-user-history',
  WEBHOOK_REPO_TYPE: 'space',
  WEBHOOK_SECRET: 'job-secret',
};

t.test('reads the payload and the variables the Hub sets for a job', (t) => {
  const job = readJobWebhook({ env });
  t.equal(job.payload.event.scope, 'repo.content');
  t.equal(job.payload.repo.headSha, '5e7f29fffcc579cb52539fddb14a1a4f85f39e44');
  t.same(
    { repoId: job.repoId, repoType: job.repoType, secret: job.secret },
    { repoId: 'Wauplin/gradio-user-history', repoType: 'space', secret: 'job-secret' },
  );
  const bare = readJobWebhook({ env: { WEBHOOK_PAYLOAD: fixtureText('discussion-created') } });
  t.same(
    { repoId: bare.repoId, repoType: bare.repoType, secret: bare.secret },
    { repoId: 'gpt2', repoType: 'model', secret: undefined },
    'repo id and type fall back to the payload',
  );
  t.end();
});

t.test('process.env by default', (t) => {
  const saved = process.env.WEBHOOK_PAYLOAD;
  process.env.WEBHOOK_PAYLOAD = fixtureText('repo-config-update');
  t.teardown(() => {
    if (saved === undefined) delete process.env.WEBHOOK_PAYLOAD;
    else process.env.WEBHOOK_PAYLOAD = saved;
  });
  t.same(readJobWebhook().payload.updatedConfig, { private: false });
  t.end();
});

t.test('the same errors as the server', (t) => {
  t.throws(() => readJobWebhook({ env: {} }), {
    statusCode: 400,
    message: 'WEBHOOK_PAYLOAD is not set: this job was not started by a webhook.',
  });
  t.throws(() => readJobWebhook({ env: { WEBHOOK_PAYLOAD: '{"event":' } }), { statusCode: 400, message: /not valid JSON/ });
  t.throws(() => readJobWebhook({ env: { WEBHOOK_PAYLOAD: '{"event":{}}' } }), {
    statusCode: 422,
    message: /payload\.event\.action is required/,
  });
  t.throws(() => readJobWebhook({ env: { ...env, WEBHOOK_REPO_TYPE: 'bucket' } }), {
    statusCode: 422,
    message: 'WEBHOOK_REPO_TYPE must be one of model, dataset, space, got "bucket".',
  });
  try {
    readJobWebhook({ env: {} });
  } catch (error) {
    t.type(error, WebhookPayloadError);
  }
  t.end();
});

t.test('an expected secret is checked like the server does', (t) => {
  t.equal(readJobWebhook({ env, webhookSecret: 'job-secret' }).secret, 'job-secret');
  t.throws(() => readJobWebhook({ env: { ...env, WEBHOOK_SECRET: '' }, webhookSecret: 'job-secret' }), {
    statusCode: 401,
    message: 'x-webhook-secret header not set.',
  });
  t.throws(() => readJobWebhook({ env, webhookSecret: 'other' }), { statusCode: 403, message: 'Invalid webhook secret.' });
  try {
    readJobWebhook({ env, webhookSecret: 'other' });
  } catch (error) {
    t.type(error, WebhookSecretError);
  }
  t.end();
});
