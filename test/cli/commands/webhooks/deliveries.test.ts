import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import WebhooksDeliveries from '../../../../src/cli/commands/webhooks/deliveries.js';
import WebhooksRedeliver from '../../../../src/cli/commands/webhooks/redeliver.js';
import { unprintable } from '../../../../src/cli/journal-source.js';
import type { fixedClock } from '../../../../src/runtime/clock.js';
import type { JournalEntry } from '../../../../src/webhooks/journal/entry.js';
import { sendTestDelivery } from '../../../../src/webhooks/send-test-delivery.js';
import { WebhooksServer } from '../../../../src/webhooks/server.js';
import { runWebhooksCommand } from '../../../support/run-webhooks-command.js';
import { fixture, fixtureText } from '../../../webhooks/helpers.js';
import { testDir } from '../../../support/test-dir.js';

t.afterEach(() => {
  process.exitCode = undefined;
});

const SECRET = 'journal-secret-81c4';
const quietEnv = { HF_HUB_DISABLE_EXPERIMENTAL_WARNING: '1' };

/** A receiver that journals, and records what its handler saw. */
async function receiver(t: Test, journal: string | undefined, times: string[] = ['2026-11-23T09:00:00.000Z']) {
  const seen: { webhookId: string | undefined; body: string }[] = [];
  let tick = 0;
  const server = new WebhooksServer({
    port: 0,
    logger: false,
    print: () => {},
    env: quietEnv,
    webhookSecret: SECRET,
    journal,
    clock: { now: () => new Date(times[Math.min(tick++, times.length - 1)]!) } as ReturnType<typeof fixedClock>,
  });
  server.addWebhook('/hook', (payload, context) => {
    seen.push({ webhookId: context.webhookId, body: context.rawBody.toString('utf8') });
    return { handled: payload.event.scope };
  });
  const { localUrl } = await server.launch();
  t.teardown(() => server.close());
  return { url: `${localUrl}/webhooks/hook`, seen, server };
}

t.test('deliveries: a table newest first, --json the entries; redeliver sends one again with its body and Webhook-Id', async (t) => {
  const journal = join(testDir(t), 'deliveries.jsonl');
  const source = await receiver(t, journal, ['2026-11-23T09:00:00.000Z', '2026-11-23T09:05:00.000Z']);
  const spaced = fixtureText('discussion-created').replace('{', '{  ');
  await fetch(source.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-webhook-secret': SECRET, 'webhook-id': 'wh-older' },
    body: spaced,
  });
  await sendTestDelivery(source.url, fixture('repo-content-update'), { secret: SECRET, webhookId: 'wh-newer' });
  await source.server.close();

  const table = await runWebhooksCommand(WebhooksDeliveries, ['--journal', journal], { env: {} });
  t.equal(table.exitCode, 0, table.stderr);
  const lines = table.stdout.trimEnd().split('\n');
  t.match(lines[0], /^WEBHOOK ID +RECEIVED +ROUTE +EVENT +REPO +STATUS +MS +REPLAY$/);
  t.match(
    lines[1],
    /^wh-newer +2026-11-23T09:05:00\.000Z +hook +repo\.content:update +space Wauplin\/gradio-user-history +200 +[\d.]+ +-$/,
  );
  t.match(lines[2], /^wh-older +2026-11-23T09:00:00\.000Z +hook +discussion:create +model gpt2 +200 +[\d.]+ +-$/);
  t.notMatch(table.stdout, SECRET);

  const json = await runWebhooksCommand(WebhooksDeliveries, ['--journal', journal, '--json'], { env: {} });
  const entries = JSON.parse(json.stdout) as JournalEntry[];
  t.same(
    entries.map((entry) => entry.webhookId),
    ['wh-newer', 'wh-older'],
  );
  t.same(entries[1]?.body, JSON.parse(spaced), 'the body as JSON');
  t.equal(entries[1]?.rawBody, spaced, 'and as it came');
  t.notMatch(json.stdout, SECRET, 'the secret is never in the journal');

  const target = await receiver(t, undefined);
  const again = await runWebhooksCommand(WebhooksRedeliver, ['wh-older', '--journal', journal, '--to', target.url, '--secret', SECRET], {
    env: {},
  });
  t.equal(again.exitCode, 0, again.stderr);
  t.equal(again.stdout, 'HTTP 200\n{\n  "handled": "discussion"\n}\n', 'prints the answer');
  t.same(target.seen, [{ webhookId: 'wh-older', body: spaced }], 'the same body bytes and the same Webhook-Id');

  const refused = await runWebhooksCommand(WebhooksRedeliver, ['wh-newer', '--journal', journal, '--to', target.url], { env: {} });
  t.equal(refused.exitCode, 6, 'no secret: the receiver answers 401, exit 6');
  t.match(refused.stdout, /^HTTP 401\n/);
  const fromEnv = await runWebhooksCommand(WebhooksRedeliver, ['wh-newer', '--journal', journal, '--to', target.url], {
    env: { WEBHOOK_SECRET: SECRET },
  });
  t.equal(fromEnv.exitCode, 0, 'the secret from WEBHOOK_SECRET');
  const nobody = await runWebhooksCommand(WebhooksRedeliver, ['wh-older', '--journal', journal, '--to', 'http://127.0.0.1:9/x?token=q1'], {
    env: {},
  });
  t.equal(nobody.exitCode, 5, 'nothing answers: exit 5');

  // Each is recorded beside the journal with its verdict, as a --failed or an inspector replay is.
  const replays = readFileSync(`${journal}.replays.jsonl`, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  t.match(replays, [
    { webhookId: 'wh-older', status: 200, verdict: 'still passing', by: 'redeliver', to: target.url },
    { webhookId: 'wh-newer', status: 401, verdict: 'regressed', by: 'redeliver' },
    { webhookId: 'wh-newer', status: 200, verdict: 'still passing' },
    { webhookId: 'wh-older', status: null, verdict: 'regressed', to: 'http://127.0.0.1:9/x', answer: /^No answer: / },
  ]);
  t.equal(replays.length, 4);
  t.notMatch(JSON.stringify(replays), SECRET, 'an answer never keeps the secret');
  const after = await runWebhooksCommand(WebhooksDeliveries, ['--journal', journal], { env: {} });
  t.match(after.stdout, /wh-newer .* still passing \(200\)\n/);
  t.match(after.stdout, /wh-older .* regressed \(no answer\)\n/);
});

t.test('an empty journal, a missing one, an unknown id, a bad --to', async (t) => {
  const dir = testDir(t, { 'empty.jsonl': '' });
  const empty = await runWebhooksCommand(WebhooksDeliveries, ['--journal', join(dir, 'empty.jsonl')], { env: {} });
  t.equal(empty.stdout, 'No deliveries.\n');
  const missing = await runWebhooksCommand(WebhooksDeliveries, ['--journal', join(dir, 'nope.jsonl')], { env: {} });
  t.equal(missing.exitCode, 2);
  t.match(missing.stderr, /^Error: Cannot read the journal .*nope\.jsonl: ENOENT/);
  const torn = join(dir, 'torn.jsonl');
  writeFileSync(
    torn,
    `${JSON.stringify({ webhookId: 'a', route: 'x', receivedAt: '2026-11-23T09:00:00.000Z', headers: {}, body: '{}', status: 200, ms: 1 })}\n{"webhookId":"b","rou`,
  );
  const partial = await runWebhooksCommand(WebhooksDeliveries, ['--journal', torn, '--json'], { env: {} });
  t.same(
    (JSON.parse(partial.stdout) as JournalEntry[]).map((entry) => entry.webhookId),
    ['a'],
    'a torn last line is skipped',
  );
  const unknown = await runWebhooksCommand(WebhooksRedeliver, ['zzz', '--journal', torn, '--to', 'http://127.0.0.1:9/x'], { env: {} });
  t.equal(unknown.exitCode, 2);
  t.match(unknown.stderr, 'No delivery with Webhook-Id zzz in');
  const badTo = await runWebhooksCommand(WebhooksRedeliver, ['a', '--journal', torn, '--to', 'nowhere'], { env: {} });
  t.equal(badTo.exitCode, 2);
});

t.test('deliveries: control characters from the journal never reach the terminal; corrupt lines are counted aloud', async (t) => {
  const journal = join(testDir(t), 'deliveries.jsonl');
  const hostile: JournalEntry = {
    webhookId: 'wh-\u001b]0;owned\u0007',
    route: 'hook\u001b[2J',
    receivedAt: '2026-11-23T09:00:00.000Z',
    headers: {},
    body: { event: { scope: 'repo\u202e', action: 'update\r' }, repo: { type: 'model', name: 'a\u001b[31mred' } },
    status: 200,
    ms: 1,
  };
  writeFileSync(journal, `${JSON.stringify(hostile)}\n{"cut short\nnot json at all\n\n`);
  const table = await runWebhooksCommand(WebhooksDeliveries, ['--journal', journal], { env: {} });
  t.equal(table.exitCode, 0, table.stderr);
  t.notOk(
    Array.from(table.stdout.replaceAll('\n', '')).some((character) => unprintable(character.codePointAt(0)!)),
    'no control character but the newlines',
  );
  t.match(
    table.stdout,
    /wh-\ufffd\]0;owned\ufffd +2026-11-23T09:00:00\.000Z +hook\ufffd\[2J +repo\ufffd:update\ufffd +model a\ufffd\[31mred/,
  );
  // oclif wraps a warning to a width (` ›` continues a line).
  t.match(table.stderr.replace(/\s*›\s*/g, ' '), /2 records of .*deliveries\.jsonl are not a delivery \(corrupt or cut short\): skipped/);
});
