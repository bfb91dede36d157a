import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import t, { type Test } from 'tap';
import { fixedClock } from '../../src/runtime/clock.js';
import { WebhookReply } from '../../src/webhooks/handler.js';
import { deliveredText, type JournalEntry } from '../../src/webhooks/journal/entry.js';
import { FileJournal } from '../../src/webhooks/journal/file-journal.js';
import { openJournal } from '../../src/webhooks/journal/open-journal.js';
import type { WebhooksServerOptions } from '../../src/webhooks/options.js';
import { WebhooksServer } from '../../src/webhooks/server.js';
import { capturedLogger } from '../support/captured-logger.js';
import { eventually } from '../../testkit/eventually.js';
import { startRedisServer } from '../support/redis-server.js';
import { fixtureText } from './helpers.js';
import { testDir } from '../support/test-dir.js';

const SECRET = 'wh-secret-journal-5c1e';
const AT = '2026-11-23T09:00:00.000Z';

async function receiver(t: Test, journal: WebhooksServerOptions['journal']) {
  const bodies: Buffer[] = [];
  const server = new WebhooksServer({
    port: 0,
    logger: false,
    print: () => {},
    webhookSecret: SECRET,
    journal,
    clock: fixedClock(AT),
    env: { HF_HUB_DISABLE_EXPERIMENTAL_WARNING: '1' },
  });
  server.addWebhook('/ok', (_payload, context) => {
    bodies.push(context.rawBody);
    return { ok: true };
  });
  server.addWebhook('/teapot', () => new WebhookReply(418, 'short and stout', { 'content-type': 'text/plain' }));
  const { localUrl } = await server.launch();
  t.teardown(() => server.close());
  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${localUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-secret': SECRET, 'webhook-id': 'wh-0001', ...headers },
      body,
    });
  return { server, post, bodies };
}

t.test('a file journal: one line per delivery that carried the secret, the body as it came, never the secret', async (t) => {
  const file = join(testDir(t), 'deliveries.jsonl');
  const { post, bodies, server } = await receiver(t, file);
  // Spaces and key order a re-serialisation would lose: the bytes are kept.
  const text = fixtureText('repo-content-update').replace('{', '{ \n  ');
  t.equal((await post('/webhooks/ok', text)).status, 200);
  t.equal(bodies[0]?.toString('utf8'), text, 'the handler sees the raw bytes too');
  const teapot = await post('/webhooks/teapot', text, { 'webhook-id': 'wh-0002' });
  t.same(
    [teapot.status, teapot.headers.get('content-type'), await teapot.text()],
    [418, 'text/plain', 'short and stout'],
    'a WebhookReply is sent as it is',
  );
  t.equal((await post('/webhooks/ok', '{"not":"a payload"}', { 'webhook-id': 'wh-0003' })).status, 422);
  t.equal((await post('/webhooks/ok', text, { 'x-webhook-secret': 'wrong', 'webhook-id': 'wh-stranger' })).status, 403);
  await server.close();

  const raw = readFileSync(file, 'utf8');
  t.notMatch(raw, SECRET, 'the secret is never written');
  t.notMatch(raw, 'wh-stranger', 'a delivery without the right secret is not journaled');
  const entries = raw
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as JournalEntry);
  t.same(
    entries.map((entry) => [entry.webhookId, entry.route, entry.status]),
    [
      ['wh-0001', 'ok', 200],
      ['wh-0002', 'teapot', 418],
      ['wh-0003', 'ok', 422],
    ],
  );
  t.same(entries[0]?.body, JSON.parse(text), 'the body, as JSON');
  t.equal(entries[0]?.rawBody, text, 'and the bytes as they came, since they differ from its JSON');
  t.equal(entries[2]?.rawBody, undefined, 'a compact body needs no second copy');
  t.equal(deliveredText(entries[2]!), '{"not":"a payload"}');
  t.equal(entries[0]?.receivedAt, AT, 'the time received, from the clock');
  t.equal(entries[0]?.headers['webhook-id'], 'wh-0001');
  t.equal(entries[0]?.headers['content-type'], 'application/json');
  t.notOk('x-webhook-secret' in (entries[0]?.headers ?? {}));
  t.type(entries[0]?.ms, 'number');
  t.same(await new FileJournal(file).read(), { entries, skipped: 0 }, 'the journal reads back what it wrote');
});

t.test('a journal that cannot write is logged; the delivery is answered all the same', async (t) => {
  const log = capturedLogger();
  const server = new WebhooksServer({
    port: 0,
    logger: log.logger,
    print: () => {},
    journal: join(testDir(t), 'no-such-folder', 'deliveries.jsonl'),
    env: { HF_HUB_DISABLE_EXPERIMENTAL_WARNING: '1' },
  });
  server.addWebhook('/ok', () => 1);
  const { localUrl } = await server.launch();
  t.teardown(() => server.close());
  const answer = await fetch(`${localUrl}/webhooks/ok`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: fixtureText('repo-content-update'),
  });
  t.equal(answer.status, 200);
  await eventually('the failure to be logged', () => log.lines().find((line) => line.msg === 'webhook journal write failed'));
});

t.test('a redis:// journal is a capped stream on that Redis', async (t) => {
  const redis = await startRedisServer(t);
  const { post, server } = await receiver(t, redis.url);
  for (const id of ['r-1', 'r-2'])
    t.equal((await post('/webhooks/ok', fixtureText('discussion-created'), { 'webhook-id': id })).status, 200);
  await eventually('both entries', async () => (await redis.cli('XLEN', 'emotion-hub:webhook-journal')) === '2');
  await server.close();
  const journal = await openJournal(redis.url, capturedLogger().logger);
  t.teardown(() => journal.close());
  const { entries } = await journal.read();
  t.same(
    entries.map((entry) => entry.webhookId),
    ['r-1', 'r-2'],
  );
  t.equal(deliveredText(entries[0]!), fixtureText('discussion-created'));
  t.notMatch(JSON.stringify(entries), SECRET);
});

t.test('a file journal keeps its newest maxEntries, the oldest dropped first, and never grows past a tenth more', async (t) => {
  const file = join(testDir(t), 'capped.jsonl');
  const journal = new FileJournal(file, 10);
  const entry = (n: number) => ({
    webhookId: `wh-${n}`,
    route: 'ok',
    receivedAt: AT,
    headers: {},
    body: { n },
    status: 200,
    ms: 1,
  });
  let longest = 0;
  for (let n = 1; n <= 40; n += 1) {
    await journal.append(entry(n));
    longest = Math.max(longest, readFileSync(file, 'utf8').split('\n').length - 1);
  }
  await journal.close();
  t.ok(longest <= 11, `at most 11 lines at any time (${longest})`);
  const { entries, skipped } = await new FileJournal(file, 10).read();
  t.equal(skipped, 0);
  t.same(entries.map((kept) => kept.webhookId).slice(-3), ['wh-38', 'wh-39', 'wh-40'], 'the newest are kept, in order');
  t.ok(entries.length >= 10 && entries[0]?.webhookId !== 'wh-1', 'the oldest went first');
  t.same(
    readdirSync(dirname(file)).filter((name) => name.includes('tmp')),
    [],
    'no temporary file left',
  );
});
