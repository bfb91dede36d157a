import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import WebhooksDeliveries from '../../../../src/cli/commands/webhooks/deliveries.js';
import WebhooksRedeliver from '../../../../src/cli/commands/webhooks/redeliver.js';
import type { JournalEntry } from '../../../../src/webhooks/journal/entry.js';
import { startTarget } from '../../../../testkit/listen-process.js';
import { runWebhooksCommand } from '../../../support/run-webhooks-command.js';
import { fixture } from '../../../webhooks/helpers.js';
import { testDir } from '../../../support/test-dir.js';

t.afterEach(() => {
  process.exitCode = undefined;
});

const SECRET = 'bulk-secret-7f1e';
const minutesAgo = (minutes: number): string => new Date(Date.now() - minutes * 60_000).toISOString();

t.test('redeliver --failed: each failed delivery of the window once, in order; a second run sends only what still fails', async (t) => {
  // What the target answers each Webhook-Id: `c` keeps failing until it is fixed.
  const answers: Record<string, number> = { a: 200, c: 500 };
  const target = await startTarget(() => answers[String(target.received.at(-1)?.headers['webhook-id'])] ?? 200);
  t.teardown(() => target.close());
  const dir = testDir(t, {});
  const journal = join(dir, 'deliveries.jsonl');
  const line = (webhookId: string, minutes: number, status: number, extra: Partial<JournalEntry> = {}): string =>
    JSON.stringify({
      webhookId,
      route: 'listen',
      receivedAt: minutesAgo(minutes),
      headers: { 'content-type': 'application/json', 'webhook-id': webhookId, 'x-kept': 'yes' },
      body: fixture('repo-content-update'),
      status,
      ms: 3.2,
      target: target.url,
      ...extra,
    });
  writeFileSync(
    journal,
    [
      line('old', 300, 500), // out of a 1h window
      line('a', 50, 502),
      line('ok', 40, 200),
      line('c', 30, 500),
      line('refused', 20, 422),
      '',
    ].join('\n'),
  );
  const run = (...argv: string[]) => runWebhooksCommand(WebhooksRedeliver, ['--failed', '--journal', journal, ...argv], { env: {} });

  const dry = await run('--since', '1h', '--dry-run');
  t.equal(dry.exitCode, 0, dry.stderr);
  t.match(dry.stdout, /^Would send 2 failed deliveries \(dry run: nothing sent\):\n/);
  t.match(dry.stdout, /\na +\S+ +repo\.content:update +space Wauplin\/gradio-user-history +502 +http:\/\/127\.0\.0\.1:\d+\/hook\nc +/);
  t.equal(target.received.length, 0, 'a dry run sends nothing');

  const first = await run('--since', '1h', '--secret', SECRET);
  t.equal(first.exitCode, 6, 'one still fails: exit 6');
  t.same(
    target.received.map((request) => request.headers['webhook-id']),
    ['a', 'c'],
    'oldest first, to the forward target listen recorded',
  );
  t.equal(target.received[0]?.headers['x-webhook-secret'], SECRET);
  t.equal(target.received[0]?.headers['x-kept'], 'yes', 'with the headers it came with');
  t.same(JSON.parse(target.received[0]!.body.toString('utf8')), fixture('repo-content-update'), 'and its body');
  t.match(first.stdout, /^a +repo\.content:update +space Wauplin\/gradio-user-history +→ 200 +fixed\nc +.* +→ 500 +still failing\n/);
  t.match(first.stdout, 'Sent 2: 1 now passing, 1 still failing.');
  t.match(first.stderr, '1 delivery still failing.');
  t.notMatch(readFileSync(`${journal}.replays.jsonl`, 'utf8'), SECRET, 'no secret in the replay log');

  const second = await run('--since', '1h', '--secret', SECRET);
  t.equal(second.exitCode, 6);
  t.same(
    target.received.slice(2).map((request) => request.headers['webhook-id']),
    ['c'],
    'only what still fails',
  );
  answers.c = 204;
  const third = await run('--since', '1h', '--secret', SECRET, '--json');
  t.equal(third.exitCode, 0, third.stderr);
  t.match(JSON.parse(third.stdout), { sent: 1, passing: 1, failing: 0, replays: [{ webhookId: 'c', status: 204, verdict: 'fixed' }] });
  const sentSoFar = target.received.length;
  const fourth = await run('--since', '1h', '--secret', SECRET);
  t.equal(fourth.exitCode, 0);
  t.equal(fourth.stdout, 'No failed delivery to send again.\n');
  t.equal(target.received.length, sentSoFar, 'a run right after a successful one sends 0');

  const table = await runWebhooksCommand(WebhooksDeliveries, ['--journal', journal], { env: {} });
  t.match(table.stdout, /\nc +\S+ +listen +repo\.content:update +.* +500 +3\.2 +fixed \(204\)\n/, 'the verdict of the latest replay');
  t.match(table.stdout, /\nok +.* +200 +3\.2 +-\n/);
  const json = JSON.parse((await runWebhooksCommand(WebhooksDeliveries, ['--journal', journal, '--json'], { env: {} })).stdout);
  t.same(
    json.find((found: { webhookId: string }) => found.webhookId === 'c').replays.map((replay: { verdict: string }) => replay.verdict),
    ['still failing', 'still failing', 'fixed'],
  );
});

t.test('redeliver --failed: without a recorded target, --to is needed; usage errors', async (t) => {
  const dir = testDir(t, {});
  const journal = join(dir, 'j.jsonl');
  writeFileSync(
    journal,
    `${JSON.stringify({ webhookId: 'x', route: 'hook', receivedAt: minutesAgo(1), headers: {}, body: { a: 1 }, status: 500, ms: 1 })}\n`,
  );
  const noTarget = await runWebhooksCommand(WebhooksRedeliver, ['--failed', '--journal', journal], { env: {} });
  t.equal(noTarget.exitCode, 2);
  t.match(noTarget.stderr, '1 delivery has no forward target in the journal');
  const both = await runWebhooksCommand(WebhooksRedeliver, ['x', '--failed', '--journal', journal, '--to', 'http://127.0.0.1:1/x'], {
    env: {},
  });
  t.equal(both.exitCode, 2);
  const neither = await runWebhooksCommand(WebhooksRedeliver, ['--journal', journal, '--to', 'http://127.0.0.1:1/x'], { env: {} });
  t.equal(neither.exitCode, 2);
  t.match(neither.stderr, 'or --failed');
  const badSince = await runWebhooksCommand(WebhooksRedeliver, ['--failed', '--since', 'yesterday', '--journal', journal], { env: {} });
  t.equal(badSince.exitCode, 2);
  t.match(badSince.stderr, '--since must be a duration');
  const unreachable = await runWebhooksCommand(WebhooksRedeliver, ['--failed', '--journal', journal, '--to', 'http://127.0.0.1:1/x'], {
    env: {},
  });
  t.equal(unreachable.exitCode, 6, 'no answer is still failing');
  t.match(unreachable.stdout, /^x +- +- +→ no answer +still failing\n/);
});
