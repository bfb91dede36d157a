import t from 'tap';
import { fixedClock } from '../../src/runtime/clock.js';
import type { WebhookContext } from '../../src/webhooks/context.js';
import type { WebhookPayload } from '../../src/webhooks/payload.js';
import { sendTestDelivery } from '../../src/webhooks/send-test-delivery.js';
import { capturedLogger } from '../support/captured-logger.js';
import { fixture } from './helpers.js';
import { SECRET, start } from './launched-server.js';

t.test('a delivery reaches its handler typed, with the Webhook-Id, and the return value is the response', async (t) => {
  const seen: { payload: WebhookPayload; context: WebhookContext }[] = [];
  const { url } = await start(t, { webhookSecret: SECRET, clock: fixedClock('2026-11-21T06:00:00Z') }, (server) => {
    server.addWebhook(function on_commit(payload, context) {
      seen.push({ payload, context });
      return { received: payload.repo.name, sha: payload.repo.headSha };
    });
  });
  const res = await sendTestDelivery(`${url}/webhooks/on_commit`, fixture('repo-content-update'), {
    secret: SECRET,
    webhookId: '6744a3e1f0c2b8d9e5a71234',
  });
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /^application\/json/);
  t.same(res.body, { received: 'Wauplin/gradio-user-history', sha: '5e7f29fffcc579cb52539fddb14a1a4f85f39e44' });
  t.equal(seen.length, 1);
  const { payload, context } = seen[0]!;
  t.equal(payload.updatedRefs?.[1]?.oldSha, null, 'a created ref keeps its null oldSha');
  t.equal(context.name, 'on_commit');
  t.equal(context.webhookId, '6744a3e1f0c2b8d9e5a71234');
  t.equal(context.event, 'repo.content:update');
  t.equal(context.receivedAt.toISOString(), '2026-11-21T06:00:00.000Z');
  t.equal(context.headers['x-webhook-secret'], undefined, 'the secret is not handed to handlers');
  t.equal(context.headers['content-type'], 'application/json');
});

t.test('each fixture of the Hub is accepted, and unknown extra keys are kept', async (t) => {
  const got: WebhookPayload[] = [];
  const { url } = await start(t, {}, (server) => server.addWebhook('/all', (payload) => void got.push(payload)));
  for (const name of ['repo-content-update', 'discussion-created', 'comment-created', 'repo-config-update'] as const) {
    const res = await sendTestDelivery(`${url}/webhooks/all`, { ...fixture(name), addedByTheHubLater: { x: 1 } });
    t.equal(res.status, 200, name);
    t.equal(res.body, null, `${name}: a handler returning nothing answers null`);
  }
  t.equal(got[1]?.discussion?.num, 19);
  t.equal(got[2]?.comment?.content, 'Thanks for the report, the deduplicated split is pushed in refs/pr/13.');
  t.same(got[3]?.updatedConfig, { private: false });
  t.same((got[0] as unknown as Record<string, unknown>).addedByTheHubLater, { x: 1 });
});

t.test('the three naming rules, and async handlers', async (t) => {
  const { server, url, printed } = await start(t, {}, (server) => {
    server.addWebhook(async function by_function_name() {
      return 'function';
    });
    server.addWebhook('/explicit_name', () => 'explicit');
    const arrow = (): string => 'arrow';
    server.addWebhook(arrow);
    server.addWebhook('nested/path/', () => 'nested');
  });
  t.same(server.webhooks, ['by_function_name', 'explicit_name', 'arrow', 'nested/path']);
  const expected: [string, string][] = [
    ['by_function_name', 'function'],
    ['explicit_name', 'explicit'],
    ['arrow', 'arrow'],
    ['nested/path', 'nested'],
  ];
  for (const [name, body] of expected) {
    const res = await sendTestDelivery(`${url}/webhooks/${name}`, fixture('repo-config-update'));
    t.same([res.status, res.body], [200, body], name);
  }
  t.same(printed.slice(-6), [
    'Webhooks are correctly setup and ready to use:',
    `  - POST ${url}/webhooks/by_function_name`,
    `  - POST ${url}/webhooks/explicit_name`,
    `  - POST ${url}/webhooks/arrow`,
    `  - POST ${url}/webhooks/nested/path`,
    'Go to https://huggingface.co/settings/webhooks to setup your webhooks.',
  ]);
  t.match(printed.join('\n'), `Running on local URL:  ${url}`);
});

t.test('a handler added after launch gets its route at once', async (t) => {
  const { server, url, printed } = await start(t, {}, (server) => server.addWebhook('/first', () => 1));
  const registered = server.addWebhook('/late', () => 'late');
  t.same({ name: registered.name, path: registered.path }, { name: 'late', path: '/webhooks/late' });
  t.equal(registered.server, server);
  t.equal(printed.at(-1), `  - POST ${url}/webhooks/late`);
  t.same((await sendTestDelivery(`${url}/webhooks/late`, fixture('repo-config-update'))).body, 'late');
});

t.test('on(...) listeners get every verified delivery by scope:action, and the bare route', async (t) => {
  const log = capturedLogger();
  const heard: string[] = [];
  const { server, url, printed } = await start(t, { webhookSecret: SECRET, logger: log.logger }, (server) => {
    server.addWebhook('/named', () => 'named');
    server.on('repo.content:update', ({ payload, context }) => void heard.push(`content ${payload.repo.name} via ${context.name}`));
    server.on('discussion:create', () => {
      throw new Error('listener bug');
    });
    server.on('*', (name, { context }) => void heard.push(`* ${name} via ${context.name || '(bare)'}`));
  });
  t.equal(printed.at(-2), `  - POST ${url}/webhooks`, 'the bare route is printed');
  t.equal((await sendTestDelivery(`${url}/webhooks/named`, fixture('repo-content-update'), { secret: SECRET })).body, 'named');
  const bare = await sendTestDelivery(`${url}/webhooks`, fixture('discussion-created'), { secret: SECRET });
  t.same([bare.status, bare.body], [200, null], 'a throwing listener does not change the response');
  t.equal((await sendTestDelivery(`${url}/webhooks`, fixture('discussion-created'), { secret: 'bad' })).status, 403);
  t.same(heard, ['content Wauplin/gradio-user-history via named', '* repo.content:update via named', '* discussion:create via (bare)']);
  t.match(
    log.lines().find((l) => l.msg === 'a webhook event listener failed'),
    { err: { message: 'listener bug' } },
  );
  const wildcard = (name: string): void => void heard.push(`again ${name}`);
  server.on('*', wildcard).off('*', wildcard);
  await sendTestDelivery(`${url}/webhooks`, fixture('comment-created'), { secret: SECRET });
  t.equal(heard.at(-1), '* discussion.comment:create via (bare)', 'a removed listener is not called');
});
