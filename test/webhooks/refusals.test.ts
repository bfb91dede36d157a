import t, { type Test } from 'tap';
import { refusedLine, sampleArgs, sendLine } from '../../src/cli/listen/listen-lines.js';
import { fixedClock } from '../../src/runtime/clock.js';
import type { WebhookRefusal } from '../../src/webhooks/options.js';
import { WebhooksServer } from '../../src/webhooks/server.js';
import { fixtureText } from './helpers.js';

// `onRefused`: the receiving server tells its owner of every delivery it refuses, with the reason
// it answered and never the body or the secret; `hub webhooks listen` prints one line for each.

/** A receiver with one route, `/webhooks/hook`, and `onRefused`; its local URL. */
async function receiver(t: Test, webhookSecret: string, onRefused: (refusal: WebhookRefusal) => void): Promise<string> {
  const server = new WebhooksServer({
    port: 0,
    webhookSecret,
    logger: false,
    print: () => undefined,
    autoStart: false,
    clock: fixedClock('2026-11-26T01:02:03Z'),
    env: { HF_HUB_DISABLE_EXPERIMENTAL_WARNING: '1' },
    onRefused,
  });
  server.addWebhook('/hook', async () => ({ ok: true }));
  const { localUrl } = await server.launch();
  t.teardown(() => server.close());
  return localUrl;
}

t.test('each refused delivery is told once, with its status and reason, never its body or secret', async (t) => {
  const refusals: WebhookRefusal[] = [];
  const localUrl = await receiver(t, 'the-right-secret', (refusal) => {
    refusals.push(refusal);
  });
  const post = (path: string, headers: Record<string, string>, body = fixtureText('repo-content-update')) =>
    fetch(`${localUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const right = { 'x-webhook-secret': 'the-right-secret' };

  t.equal((await post('/webhooks/hook', right)).status, 200, 'a good delivery is not a refusal');
  t.equal((await post('/webhooks/hook', {})).status, 401);
  t.equal((await post('/webhooks/hook?secret=in-the-query', { 'x-webhook-secret': 'wrong-guess' })).status, 403);
  t.equal((await post('/webhooks/hook', right, '{"broken')).status, 400);
  t.equal((await post('/webhooks/hook', { ...right, 'content-type': 'text/plain' })).status, 415);
  t.equal((await post('/webhooks/hook', right, '{"event": 1}')).status, 422);
  t.equal((await post('/webhooks/elsewhere', right)).status, 404);
  t.equal((await fetch(`${localUrl}/robots.txt`)).status, 404, 'a GET of some page is not a delivery');
  t.same(
    refusals.map(({ method, route, statusCode }) => `${method} ${route} ${statusCode}`),
    [
      'POST /webhooks/hook 401',
      'POST /webhooks/hook 403',
      'POST /webhooks/hook 400',
      'POST /webhooks/hook 415',
      'POST /webhooks/hook 422',
      'POST /webhooks/elsewhere 404',
    ],
  );
  t.match(refusals[0], { at: new Date('2026-11-26T01:02:03Z'), error: 'x-webhook-secret header not set.' });
  t.match(refusals[1], { error: 'Invalid webhook secret.' });
  t.notMatch(JSON.stringify(refusals), /the-right-secret|wrong-guess|in-the-query|Wauplin/, 'no secret, query or body');
});

t.test('a listener that throws changes nothing of the answer', async (t) => {
  const localUrl = await receiver(t, 's', () => {
    throw new Error('listener bug');
  });
  const answer = await fetch(`${localUrl}/webhooks/hook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  t.equal(answer.status, 401);
  t.same(await answer.json(), { error: 'x-webhook-secret header not set.' });
});

t.test("listen's lines: a refusal with its reason; the send line with the secret on a terminal only", (t) => {
  const refusal = { at: new Date('2026-11-26T01:02:03Z'), method: 'POST', route: '/webhooks/listen' };
  t.equal(
    refusedLine({ ...refusal, statusCode: 401, error: 'x-webhook-secret header not set.' }),
    '01:02:03  refused  POST /webhooks/listen  → 401  x-webhook-secret header not set. (send it with this listen’s secret in X-Webhook-Secret)',
  );
  t.equal(
    refusedLine({ ...refusal, statusCode: 400, error: 'The request body is not valid JSON.' }),
    '01:02:03  refused  POST /webhooks/listen  → 400  The request body is not valid JSON.',
  );
  t.equal(
    sendLine('hub', 'http://127.0.0.1:4000/webhooks/listen', 'Zq_9', true),
    'Try it: hub webhooks send http://127.0.0.1:4000/webhooks/listen --secret Zq_9',
  );
  t.notMatch(sendLine('hub', 'http://127.0.0.1:4000/webhooks/listen', 'Zq_9', false), 'Zq_9', 'not in a log or a pipe');
  t.end();
});

t.test("the send line's sample looks like what listen watches", (t) => {
  t.same(sampleArgs([{ type: 'model', name: 'gpt2' }], undefined), ['--set', 'repo.type=model', '--set', 'repo.name=gpt2']);
  t.same(
    sampleArgs(
      [
        { type: 'dataset', name: 'stanfordnlp/imdb' },
        { type: 'model', name: 'gpt2' },
      ],
      ['repo', 'discussion'],
    ),
    ['--set', 'repo.type=dataset', '--set', 'repo.name=stanfordnlp/imdb'],
    'the first watched item',
  );
  t.same(
    sampleArgs([{ type: 'user', name: 'julien-c' }], ['discussion']),
    ['--event', 'discussion', '--set', 'repo.name=julien-c/gradio-user-history'],
    "a user's repository; a discussion event when only discussions are watched",
  );
  t.same(sampleArgs([{ type: 'org', name: "o'brien lab" }], undefined), ['--set', `'repo.name=o'\\''brien lab/gradio-user-history'`]);
  t.equal(
    sendLine('hub', 'http://127.0.0.1:4000/webhooks/listen', 'Zq_9', true, ['--set', 'repo.type=model']),
    'Try it: hub webhooks send http://127.0.0.1:4000/webhooks/listen --set repo.type=model --secret Zq_9',
  );
  t.end();
});
