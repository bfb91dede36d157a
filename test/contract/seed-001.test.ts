import t, { type Test } from 'tap';
import WebhooksCreate from '../../src/cli/commands/webhooks/create.js';
import {
  createWebhook,
  deleteWebhook,
  disableWebhook,
  enableWebhook,
  getWebhook,
  HubApiError,
  listWebhooks,
  updateWebhook,
  WebhooksServer,
  webhookEndpoint,
} from '../../src/index.js';
import { samplePayloadText } from '../../src/webhooks/sample-payloads.js';
import { sendTestDelivery } from '../../src/webhooks/send-test-delivery.js';
import { startFakeHub } from '../../testkit/fake-hub.js';
import { TOKEN } from '../support/hub-fixtures.js';
import { runWebhooksCommand } from '../support/run-webhooks-command.js';

/** The experimental-feature warning is not what these tests read. */
const QUIET = { HF_HUB_DISABLE_EXPERIMENTAL_WARNING: '1' };

// docs/specification.md#webhooks, read line by line: the library operations and their state table, and `--watch type:name`.
async function fakeHub(t: Test) {
  const hub = await startFakeHub({ token: TOKEN });
  t.teardown(() => hub.close());
  return { hub, options: { accessToken: TOKEN, hubUrl: hub.url } };
}

t.test('the package entry holds every specified operation and the receiving server', (t) => {
  for (const fn of [
    createWebhook,
    listWebhooks,
    getWebhook,
    updateWebhook,
    enableWebhook,
    disableWebhook,
    deleteWebhook,
    webhookEndpoint,
  ]) {
    t.type(fn, 'function', fn.name);
  }
  t.type(WebhooksServer, 'function');
  t.end();
});

t.test('create (url or job), list, update, then enabled → disabled → enabled → removed', async (t) => {
  const { hub, options } = await fakeHub(t);
  const watched = [
    { type: 'user', name: 'julien-c' },
    { type: 'org', name: 'HuggingFaceH4' },
  ] as const;
  const created = await createWebhook({
    ...options,
    url: 'https://example.com/hook',
    watched,
    domains: ['repo', 'discussion'],
    secret: 'my-secret',
  });
  t.type(created.id, 'string');
  t.equal(created.url, 'https://example.com/hook');
  t.equal(created.disabled, false);
  t.same(created.watched, watched);
  t.same(created.domains, ['repo', 'discussion']);

  const job = await createWebhook({ ...options, jobId: 'job-42', watched: [{ type: 'user', name: 'julien-c' }] });
  t.equal(job.url, undefined, 'a job webhook has no URL');
  t.same(hub.requests.at(-1)?.body, { watched: [{ type: 'user', name: 'julien-c' }], jobSourceId: 'job-42' });

  const listed = await listWebhooks(options);
  t.ok(Symbol.iterator in listed, 'an iterable of webhooks');
  t.same(
    [...listed].map(({ id, url, disabled }) => ({ id, url, disabled })).sort((a, b) => a.id.localeCompare(b.id)),
    [
      { id: created.id, url: 'https://example.com/hook', disabled: false },
      { id: job.id, url: undefined, disabled: false },
    ].sort((a, b) => a.id.localeCompare(b.id)),
    'ids, URLs and statuses',
  );

  const updated = await updateWebhook({
    ...options,
    webhookId: created.id,
    url: 'https://example.com/v2',
    watched: [{ type: 'model', name: 'gpt2' }],
    domains: ['repo'],
  });
  t.match(updated, { id: created.id, url: 'https://example.com/v2', watched: [{ type: 'model', name: 'gpt2' }], domains: ['repo'] });

  const disabled = await disableWebhook({ ...options, webhookId: created.id });
  t.equal(disabled.disabled, true);
  t.equal((await getWebhook({ ...options, webhookId: created.id })).disabled, true, 'a disabled webhook is kept');
  t.equal((await enableWebhook({ ...options, webhookId: created.id })).disabled, false);

  t.equal(await deleteWebhook({ ...options, webhookId: created.id }), undefined, 'delete returns nothing');
  const gone = await getWebhook({ ...options, webhookId: created.id }).catch((error: unknown) => error);
  t.type(gone, HubApiError, 'removed for good');
  t.same(
    (await listWebhooks(options)).map(({ id }) => id),
    [job.id],
  );
});

t.test('--watch type:name takes each of the five types, repeatable', async (t) => {
  const { hub } = await fakeHub(t);
  const items = [
    'model:openai-community/gpt2',
    'dataset:stanfordnlp/imdb',
    'space:gradio/hello_world',
    'org:HuggingFaceH4',
    'user:julien-c',
  ];
  const { exitCode, stderr } = await runWebhooksCommand(
    WebhooksCreate,
    ['--url', 'https://example.com/hook', ...items.flatMap((item) => ['--watch', item]), '--domain', 'repo'],
    { env: { HF_TOKEN: TOKEN, HF_ENDPOINT: hub.url, HOME: '/nonexistent-home' } },
  );
  t.equal(exitCode, 0, stderr);
  t.same(hub.requests.at(-1)?.body, {
    watched: items.map((item) => ({ type: item.slice(0, item.indexOf(':')), name: item.slice(item.indexOf(':') + 1) })),
    domains: ['repo'],
    url: 'https://example.com/hook',
  });
});

/** A refusal of the client's request (the seed shows no status; the Hub's server answers 401 or 403). */
const refused = ({ status }: { status: number }) => status >= 400 && status < 500;

t.test('a server secret (argument or WEBHOOK_SECRET): only requests carrying the correct secret are accepted', async (t) => {
  const payload = JSON.parse(samplePayloadText('repo.config')) as object;
  for (const [how, options] of [
    ['the webhookSecret argument', { webhookSecret: 'seed-secret-1' }],
    ['WEBHOOK_SECRET', { env: { ...QUIET, WEBHOOK_SECRET: 'seed-secret-1' } }],
  ] as const) {
    let handled = 0;
    const server = new WebhooksServer({ port: 0, logger: false, env: QUIET, print: () => undefined, ...options });
    server.addWebhook('/guarded', () => ++handled);
    const { url, close } = await server.launch();
    t.teardown(close);
    const send = (secret?: string) => sendTestDelivery(`${url}/webhooks/guarded`, payload, secret === undefined ? {} : { secret });
    t.ok(refused(await send()), `${how}: a request without the secret is refused`);
    t.ok(refused(await send('seed-secret-2')), `${how}: a wrong secret is refused`);
    t.ok(refused(await send('seed-secret-')), `${how}: a prefix of it is refused`);
    t.equal(handled, 0, `${how}: no refused request reached the handler`);
    t.equal((await send('seed-secret-1')).status, 200, `${how}: the correct secret is accepted`);
    t.equal(handled, 1);
  }
});

t.test('no secret set: the routes are open to everyone and a warning is logged at startup', async (t) => {
  const printed: string[] = [];
  const server = new WebhooksServer({ port: 0, logger: false, env: QUIET, print: (line) => printed.push(line) });
  server.addWebhook('/open', () => 'open');
  const { url, close } = await server.launch();
  t.teardown(close);
  t.match(printed.join('\n'), /not defined[^\n]*open to everyone/);
  t.equal((await sendTestDelivery(`${url}/webhooks/open`, JSON.parse(samplePayloadText('repo.config')) as object)).status, 200);
});
