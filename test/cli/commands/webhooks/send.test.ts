import t from 'tap';
import WebhooksSend from '../../../../src/cli/commands/webhooks/send.js';
import type { WebhookPayload } from '../../../../src/webhooks/payload.js';
import { SAMPLE_EVENT_NAMES, SAMPLE_EVENTS, SAMPLE_SCOPES, samplePayload } from '../../../../src/webhooks/sample-payloads.js';
import { WebhooksServer } from '../../../../src/webhooks/server.js';
import { validateWebhookPayload } from '../../../../src/webhooks/validate-payload.js';
import { runWebhooksCommand } from '../../../support/run-webhooks-command.js';
import { testDir } from '../../../support/test-dir.js';

t.afterEach(() => {
  process.exitCode = undefined;
});

interface Sent {
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** A receiver stand-in: records each request and answers `status` with `body`. */
function receiver(status = 200, body: string = '{"processed":true}', type = 'application/json; charset=utf-8') {
  const sent: Sent[] = [];
  const fetch = (async (url: URL, init: RequestInit) => {
    sent.push({ url: String(url), headers: init.headers as Record<string, string>, body: JSON.parse(String(init.body)) });
    return new Response(body, { status, headers: { 'content-type': type } });
  }) as unknown as typeof globalThis.fetch;
  return { sent, fetch };
}

const URL_ = 'http://127.0.0.1:7860/webhooks/on_commit';

t.test('the built-in sample of each scope, posted as the Hub does: JSON, a Webhook-Id, the secret header', async (t) => {
  for (const scope of SAMPLE_SCOPES) {
    const { sent, fetch } = receiver();
    const run = await runWebhooksCommand(WebhooksSend, [URL_, '--event', scope, '--secret', 'my-secret'], { env: {}, fetch });
    t.equal(run.exitCode, 0, scope);
    t.same(sent[0]?.body, samplePayload(scope), `${scope}: the sample payload`);
    t.equal((sent[0]!.body as { event: { scope: string } }).event.scope, scope);
    t.equal(sent[0]?.headers['content-type'], 'application/json');
    t.equal(sent[0]?.headers['x-webhook-secret'], 'my-secret');
    t.match(sent[0]?.headers['webhook-id'], /^[0-9a-f]{24}$/, 'a Hub-like id');
    t.equal(run.stdout, 'HTTP 200\n{\n  "processed": true\n}\n');
    t.notMatch(run.stdout + run.stderr, 'my-secret', 'the secret is never printed');
  }
});

t.test('defaults: the repo.content sample, the secret from WEBHOOK_SECRET, none without it', async (t) => {
  const withEnv = receiver();
  await runWebhooksCommand(WebhooksSend, [URL_], { env: { WEBHOOK_SECRET: 'from-env' }, fetch: withEnv.fetch });
  t.equal((withEnv.sent[0]!.body as { event: { scope: string } }).event.scope, 'repo.content');
  t.equal(withEnv.sent[0]?.headers['x-webhook-secret'], 'from-env');
  const without = receiver();
  await runWebhooksCommand(WebhooksSend, [URL_, '--webhook-id', '65a14fd933eca76f4639fc84'], { env: {}, fetch: without.fetch });
  t.notOk('x-webhook-secret' in (without.sent[0]?.headers ?? {}));
  t.equal(without.sent[0]?.headers['webhook-id'], '65a14fd933eca76f4639fc84');
});

t.test('--payload sends a file as it is; a file that is not JSON, or --payload with --event, is a usage error', async (t) => {
  const dir = testDir(t, {
    'delivery.json': '{"event":{"action":"update","scope":"repo.custom"},"anything":[1,null]}',
    'broken.json': '{"event":',
  });
  const { sent, fetch } = receiver();
  const run = await runWebhooksCommand(WebhooksSend, [URL_, '--payload', `${dir}/delivery.json`], { env: {}, fetch });
  t.equal(run.exitCode, 0);
  t.same(sent[0]?.body, { event: { action: 'update', scope: 'repo.custom' }, anything: [1, null] });

  const broken = await runWebhooksCommand(WebhooksSend, [URL_, '--payload', `${dir}/broken.json`], { env: {}, fetch });
  t.equal(broken.exitCode, 2);
  t.match(broken.stderr, /The payload file .*broken\.json is not JSON/);
  const both = await runWebhooksCommand(WebhooksSend, [URL_, '--payload', `${dir}/delivery.json`, '--event', 'repo'], { env: {}, fetch });
  t.equal(both.exitCode, 2);
  t.match(both.stderr, /--event=repo cannot also be provided when using --payload/);
  const unknown = await runWebhooksCommand(WebhooksSend, [URL_, '--event', 'push'], { env: {}, fetch });
  t.equal(unknown.exitCode, 2);
  t.equal(sent.length, 1, 'nothing sent after a usage error');
});

t.test('an answer that is not 2xx: status and body printed, exit 6; --json carries both in the error', async (t) => {
  const refused = receiver(403, '{"error":"Invalid webhook secret."}');
  const run = await runWebhooksCommand(WebhooksSend, [URL_, '--secret', 'wrong'], { env: {}, fetch: refused.fetch });
  t.equal(run.exitCode, 6);
  t.equal(run.stdout, 'HTTP 403\n{\n  "error": "Invalid webhook secret."\n}\n');
  t.match(run.stderr, 'Error: The receiver answered HTTP 403.');

  const json = await runWebhooksCommand(WebhooksSend, [URL_, '--json'], { env: {}, fetch: receiver(500, 'boom', 'text/plain').fetch });
  t.equal(json.exitCode, 6);
  t.same(JSON.parse(json.stdout), { error: { message: 'The receiver answered HTTP 500.', exitCode: 6, status: 500, body: 'boom' } });

  const ok = await runWebhooksCommand(WebhooksSend, [URL_, '--json'], { env: {}, fetch: receiver(200, 'null').fetch });
  t.same(JSON.parse(ok.stdout), { status: 200, body: null });
});

t.test('no receiver: exit 5 with the reason, and no query string (it may hold a secret) in the message', async (t) => {
  const fetch = (async () => {
    throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') });
  }) as unknown as typeof globalThis.fetch;
  const run = await runWebhooksCommand(WebhooksSend, ['http://127.0.0.1:9/webhooks/x?secret=s3cr3t'], { env: {}, fetch });
  t.equal(run.exitCode, 5);
  t.equal(run.stderr, 'Error: Cannot reach http://127.0.0.1:9/webhooks/x: connect ECONNREFUSED 127.0.0.1:9\n');
  const ftp = await runWebhooksCommand(WebhooksSend, ['ftp://127.0.0.1/x'], { env: {}, fetch });
  t.equal(ftp.exitCode, 2);
});

t.test('an invalid URL is a usage error: exit 2', async (t) => {
  const { sent, fetch } = receiver();
  const run = await runWebhooksCommand(WebhooksSend, ['not-a-url'], { env: {}, fetch });
  t.equal(run.exitCode, 2);
  t.equal(run.stderr, 'Error: The receiver URL must be an http(s) URL, got "not-a-url".\n');
  t.equal(sent.length, 0);
});

t.test('every documented scope:action has a sample that a real receiver accepts, --set included', async (t) => {
  const received: { event: string; payload: WebhookPayload }[] = [];
  const server = new WebhooksServer({
    port: 0,
    logger: false,
    webhookSecret: 'my-secret',
    print: () => {},
    env: { HF_HUB_DISABLE_EXPERIMENTAL_WARNING: '1' },
  });
  server.addWebhook('/all', (payload, context) => void received.push({ event: context.event, payload }));
  const { localUrl } = await server.launch();
  t.teardown(() => server.close());
  t.equal(SAMPLE_EVENT_NAMES.length, 11, 'the eleven pairs the Hub documents');
  for (const scope of SAMPLE_SCOPES) {
    for (const action of SAMPLE_EVENTS[scope]) {
      const run = await runWebhooksCommand(
        WebhooksSend,
        [
          `${localUrl}/webhooks/all`,
          '--event',
          scope,
          '--action',
          action,
          '--secret',
          'my-secret',
          '--set',
          'repo.name=me/changed',
          '--set',
          'repo.tags=["a","b"]',
        ],
        { env: {}, fetch },
      );
      t.equal(run.exitCode, 0, `${scope}:${action} answered 200`);
      const last = received.at(-1);
      t.equal(last?.event, `${scope}:${action}`);
      t.equal(last?.payload.repo.name, 'me/changed', '--set changed the field');
      t.same(last?.payload.repo.tags, ['a', 'b'], 'a value that parses as JSON is JSON');
      t.doesNotThrow(() => validateWebhookPayload(samplePayload(scope, action)), `${scope}:${action} validates`);
    }
  }
  t.equal(received.length, 11);
  t.ok(received.find((r) => r.event === 'repo:move')?.payload.movedTo, 'a move says where to');
});

t.test('--set: strings, numbers, nested paths and array items; a bad one or an unknown pair is a usage error', async (t) => {
  const { sent, fetch } = receiver();
  await runWebhooksCommand(
    WebhooksSend,
    [
      URL_,
      '--event',
      'repo.content',
      '--set',
      'repo.name=gpt2',
      '--set',
      'updatedRefs[0].ref=refs/heads/dev',
      '--set',
      'webhook.version=3',
      '--set',
      'extra.deep=null',
    ],
    { env: {}, fetch },
  );
  const body = sent[0]?.body as Record<string, any>;
  t.equal(body.repo.name, 'gpt2');
  t.equal(body.updatedRefs[0].ref, 'refs/heads/dev');
  t.equal(body.webhook.version, 3);
  t.same(body.extra, { deep: null }, 'missing objects on the way are made');
  for (const bad of ['no-equals', '=x', 'a..b=1', 'repo.name.x=1', '__proto__.x=1']) {
    const run = await runWebhooksCommand(WebhooksSend, [URL_, '--set', bad], { env: {}, fetch });
    t.equal(run.exitCode, 2, `--set ${bad}`);
  }
  const pair = await runWebhooksCommand(WebhooksSend, [URL_, '--event', 'repo.config', '--action', 'delete'], { env: {}, fetch });
  t.equal(pair.exitCode, 2);
  t.match(pair.stderr, 'The Hub sends no repo.config:delete event. Documented: repo:create, repo:update');
  t.equal(sent.length, 1, 'nothing sent after a usage error');
});
