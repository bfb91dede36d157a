// The inspector's server in-process, over a file journal and over a Redis one (a real redis-server):
// the token, the API's answers and errors, the live feed, and replays recorded beside each journal.
import { appendFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import WebhooksInspect from '../../../src/cli/commands/webhooks/inspect.js';
import { runInspector } from '../../../src/cli/inspect/run-inspector.js';
import type { JournalEntry } from '../../../src/webhooks/journal/entry.js';
import { RedisJournal } from '../../../src/webhooks/journal/redis-journal.js';
import { redisReplayLog } from '../../../src/webhooks/journal/replay-log.js';
import { eventually } from '../../../testkit/eventually.js';
import { startTarget } from '../../../testkit/listen-process.js';
import { redisClient, startRedisServer } from '../../support/redis-server.js';
import { runWebhooksCommand } from '../../support/run-webhooks-command.js';
import { SseReader } from '../../support/sse-client.js';
import { fixture } from '../../webhooks/helpers.js';
import { testDir } from '../../support/test-dir.js';

const SECRET = 'inspector-secret-4d2a';
/** A token in the forward target's query: the replay sends it, the inspector never shows it. */
const QUERY_TOKEN = 'query-token-7c1e';

const entry = (n: number, status: number, extra: Partial<JournalEntry> = {}): JournalEntry => ({
  webhookId: `wh-${n}`,
  route: 'listen',
  receivedAt: new Date(Date.UTC(2026, 10, 27, 10, n)).toISOString(),
  headers: { 'content-type': 'application/json', 'webhook-id': `wh-${n}`, authorization: 'Bearer abc' },
  body: fixture('repo-content-update'),
  status,
  ms: 2,
  ...extra,
});

async function inspector(t: Test, journal: string) {
  const running = await runInspector({ journal, host: '127.0.0.1', port: 0, secret: SECRET, pollMs: 20, warn: () => undefined });
  t.teardown(() => running.close());
  const url = new URL(running.url);
  const headers = { authorization: `Bearer ${url.searchParams.get('token')}` };
  const api = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${url.origin}${path}`, { ...init, headers: { ...headers, 'content-type': 'application/json' } });
    const text = await response.text();
    t.notMatch(text, SECRET, `${path}: no secret`);
    t.notMatch(text, QUERY_TOKEN, `${path}: no token of a target's query`);
    return { status: response.status, body: JSON.parse(text) };
  };
  return { running, url, headers, api };
}

t.test('over a file journal: the API, the live feed, a rewrite, replays beside the journal', async (t) => {
  const target = await startTarget(() => 200);
  t.teardown(() => target.close());
  const dir = testDir(t, {});
  const journal = join(dir, 'deliveries.jsonl');
  writeFileSync(
    journal,
    `${JSON.stringify(entry(1, 200))}\n${JSON.stringify(entry(2, 500, { target: `${target.url}?token=${QUERY_TOKEN}`, answer: `echo ${SECRET}` }))}\n`,
  );
  const { running, url, headers, api } = await inspector(t, journal);
  t.equal(running.deliveries, 2);
  t.equal((await fetch(`${url.origin}/api/deliveries`)).status, 401, 'no token');
  t.equal((await fetch(`${url.origin}/api/deliveries`, { headers: { authorization: 'Bearer nope' } })).status, 401, 'a wrong one');
  t.equal((await fetch(`${url.origin}/assets/nothing.js`, { headers })).status, 404);
  const opened = await fetch(url, { redirect: 'manual' });
  t.equal(opened.status, 303);
  t.match(opened.headers.get('set-cookie'), /^hub_inspect=[^;]+; HttpOnly; SameSite=Strict; Path=\/$/);
  const cookie = opened.headers.get('set-cookie')!.split(';')[0]!;
  t.equal((await fetch(`${url.origin}/`, { headers: { cookie } })).status, 200, 'the cookie opens the page');

  const list = await api('/api/deliveries');
  t.match(list.body, { total: 2, matched: 2, deliveries: [{ webhookId: 'wh-2', outcome: 'failed' }, { webhookId: 'wh-1' }] });
  const [failed, passed] = list.body.deliveries as { id: string }[];
  const detail = await api(`/api/deliveries/${failed!.id}`);
  t.match(detail.body, { headers: { authorization: '[redacted]' }, answer: 'echo [redacted]', replays: [] });
  t.equal(detail.body.target, target.url, 'the forward target shown without its query, where a token may ride');
  t.equal((await api('/api/deliveries/nope')).status, 404);
  t.same((await api(`/api/deliveries/${failed!.id}/diff?with=${passed!.id}`)).body.changes, [], 'the same payloads');
  t.equal((await api(`/api/deliveries/${failed!.id}/diff?with=nope`)).status, 404);

  const feed = new SseReader((await fetch(`${url.origin}/api/events`, { headers })).body!);
  appendFileSync(journal, `${JSON.stringify(entry(3, 422))}\n{"webhookId":"half`);
  await eventually('the new delivery on the feed', () => feed.data('delivery').find((summary) => summary.webhookId === 'wh-3'));
  t.equal((await api('/api/deliveries')).body.total, 3, 'a line still being written waits');

  t.equal((await api(`/api/deliveries/${failed!.id}/replay`, { method: 'POST', body: JSON.stringify({ to: 'ftp://x' }) })).status, 400);
  t.equal((await api(`/api/deliveries/${failed!.id}/replay`, { method: 'POST', body: JSON.stringify({ to: 'not a url' }) })).status, 400);
  t.equal(
    (await api(`/api/deliveries/${passed!.id}/replay`, { method: 'POST', body: '{}' })).status,
    400,
    'no target recorded, none given',
  );
  const replay = await api(`/api/deliveries/${failed!.id}/replay`, { method: 'POST', body: '{}' });
  t.match(replay.body, { webhookId: 'wh-2', status: 200, verdict: 'fixed', by: 'inspect' });
  t.equal(target.received[0]?.headers['x-webhook-secret'], SECRET, 'sent with the secret');
  await eventually('the replay on the feed', () => feed.data('replay').length === 1);
  t.match(readFileSync(`${journal}.replays.jsonl`, 'utf8'), /"verdict":"fixed"/, 'recorded beside the journal');
  t.equal((await api('/api/deliveries?status=failed')).body.deliveries[0].verdict, 'fixed');

  // The receiver's cap rewrites the journal (a new file renamed over it): read again whole.
  writeFileSync(`${journal}.new`, `${JSON.stringify(entry(4, 200))}\n`);
  renameSync(`${journal}.new`, journal);
  await eventually('the rewritten journal', async () => (await api('/api/deliveries')).body.total === 1);
});

t.test('over a Redis journal: the stream followed live, replays in the stream beside it', async (t) => {
  const redis = await startRedisServer(t);
  const client = await redisClient(t, redis.url);
  const journal = new RedisJournal(client);
  const target = await startTarget(() => 503);
  t.teardown(() => target.close());
  await journal.append(entry(1, 200, { target: target.url }));
  const { running, api } = await inspector(t, redis.url);
  t.equal(running.deliveries, 1);
  await journal.append(entry(2, 502));
  await eventually('the new entry', async () => (await api('/api/deliveries')).body.total === 2);
  const first = (await api('/api/deliveries?q=wh-1')).body.deliveries[0];
  t.match((await api(`/api/deliveries/${first.id}/replay`, { method: 'POST', body: '{}' })).body, { status: 503, verdict: 'regressed' });
  t.match(await redisReplayLog(client).read(), [{ webhookId: 'wh-1', verdict: 'regressed', by: 'inspect' }]);
});

t.test('usage errors: a journal is needed, --redis takes a Redis URL', async (t) => {
  t.teardown(() => {
    process.exitCode = undefined;
  });
  const neither = await runWebhooksCommand(WebhooksInspect, [], { env: {} });
  t.equal(neither.exitCode, 2);
  const notRedis = await runWebhooksCommand(WebhooksInspect, ['--redis', 'deliveries.jsonl'], { env: {} });
  t.equal(notRedis.exitCode, 2);
  t.match(notRedis.stderr, '--redis must be a redis:// (or rediss://) URL');
});
