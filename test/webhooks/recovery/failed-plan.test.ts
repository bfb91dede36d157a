import t from 'tap';
import { parseDuration } from '../../../src/cli/duration.js';
import type { JournalEntry } from '../../../src/webhooks/journal/entry.js';
import { failedToResend } from '../../../src/webhooks/recovery/failed-plan.js';
import { outcomeOf, type ReplayRecord, verdictOf } from '../../../src/webhooks/recovery/replay-record.js';

const entry = (webhookId: string | null, receivedAt: string, status: number): JournalEntry => ({
  webhookId,
  route: 'listen',
  receivedAt,
  headers: {},
  body: { n: webhookId },
  status,
  ms: 1,
});
const replay = (webhookId: string | null, receivedAt: string, at: string, status: number | null): ReplayRecord => ({
  webhookId,
  receivedAt,
  at,
  to: 'http://127.0.0.1:1/x',
  status,
  ms: 1,
  verdict: verdictOf(500, status),
  by: 'redeliver',
});
const T = (minute: number): string => new Date(Date.UTC(2026, 10, 27, 10, minute)).toISOString();

t.test('outcomes and verdicts', (t) => {
  t.same([200, 204, 301, 404, 422, 500, 502, null].map(outcomeOf), [
    'delivered',
    'delivered',
    'failed',
    'refused',
    'refused',
    'failed',
    'failed',
    'failed',
  ]);
  t.equal(verdictOf(500, 200), 'fixed');
  t.equal(verdictOf(200, 500), 'regressed');
  t.equal(verdictOf(502, null), 'still failing');
  t.equal(verdictOf(201, 200), 'still passing');
  t.equal(verdictOf(200, 422), 'regressed', 'a refusal is not a pass');
  t.end();
});

t.test('the failed deliveries of the window, oldest first, once each; a later pass closes a case', (t) => {
  const entries = [
    entry('late', T(9), 500),
    entry('ok', T(2), 200),
    entry('retried', T(3), 500),
    entry('retried', T(4), 200), // the Hub's retry passed
    entry('twice', T(5), 502),
    entry('twice', T(6), 503), // both failed: sent once, the newest bytes
    entry('refused', T(7), 422),
    entry(null, T(8), 500),
    entry('old', T(0), 500),
  ];
  const plan = failedToResend(entries, [], new Date(T(1)));
  t.same(
    plan.map((found) => [found.webhookId, found.receivedAt]),
    [
      ['twice', T(6)],
      [null, T(8)],
      ['late', T(9)],
    ],
  );
  t.same(
    failedToResend(entries, []).map((found) => found.webhookId),
    ['old', 'twice', null, 'late'],
    'no window: the whole journal',
  );
  const afterRun = [replay('twice', T(6), T(20), 200), replay(null, T(8), T(20), 500), replay('late', T(9), T(20), null)];
  t.same(
    failedToResend(entries, afterRun, new Date(T(1))).map((found) => found.webhookId),
    [null, 'late'],
    'what passed is done; what failed again (or got no answer) is still failing',
  );
  const allPassed = afterRun.map((record) => ({ ...record, status: 200 }));
  t.same(failedToResend(entries, allPassed, new Date(T(1))), [], 'a run right after one where all passed sends nothing');
  t.same(
    failedToResend([...entries, entry('twice', T(30), 500)], allPassed, new Date(T(1))).map((found) => found.webhookId),
    ['twice'],
    'a new failure after the replay opens the case again',
  );
  t.end();
});

t.test('durations', (t) => {
  t.equal(parseDuration('30m', '--since'), 1_800_000);
  t.equal(parseDuration('1h30m', '--since'), 5_400_000);
  t.equal(parseDuration('7d', '--since'), 604_800_000);
  t.equal(parseDuration('90s', '--since'), 90_000);
  for (const bad of ['', 'soon', '10', '5x', '1h and 2m'])
    t.throws(() => parseDuration(bad, '--since'), { message: /--since must be a duration/, exitCode: 2 }, bad);
  t.end();
});
