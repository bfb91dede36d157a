import t from 'tap';
import { presentedToken, tokenChecker } from '../../../src/cli/inspect/access-token.js';
import { DeliveryIndex, parseFilter } from '../../../src/webhooks/inspector/delivery-index.js';
import { jsonDiff } from '../../../src/webhooks/inspector/json-diff.js';
import { redactHeaders, redactSecrets } from '../../../src/webhooks/inspector/redact.js';
import type { JournalEntry } from '../../../src/webhooks/journal/entry.js';
import { fixture } from '../helpers.js';

const entry = (n: number, status: number, body: unknown, extra: Partial<JournalEntry> = {}): JournalEntry => ({
  webhookId: `wh-${n}`,
  route: 'listen',
  receivedAt: new Date(Date.UTC(2026, 10, 27, 10, n)).toISOString(),
  headers: { 'content-type': 'application/json' },
  body,
  status,
  ms: n,
  ...extra,
});

t.test('the index: newest first, every filter, ids stable, no entry twice', (t) => {
  const gpt2 = fixture('repo-content-update');
  gpt2.repo.name = 'openai/gpt2';
  const entries = [
    entry(1, 200, fixture('repo-created')),
    entry(2, 500, gpt2, { answer: 'Traceback: KeyError headSha' }),
    entry(3, 422, { not: 'a payload' }),
    entry(4, 201, fixture('comment-created')),
  ];
  const index = new DeliveryIndex();
  t.equal(index.add(entries).length, 4);
  t.equal(index.add(entries).length, 0, 'the same entries again add nothing');
  const ids = (filter: Record<string, string>) => index.filter(parseFilter(filter)).deliveries.map((found) => found.webhookId);
  t.same(ids({}), ['wh-4', 'wh-3', 'wh-2', 'wh-1']);
  t.same(ids({ status: 'failed' }), ['wh-2']);
  t.same(ids({ status: 'refused' }), ['wh-3']);
  t.same(ids({ status: 'delivered' }), ['wh-4', 'wh-1']);
  t.same(ids({ status: 'nonsense' }), ['wh-4', 'wh-3', 'wh-2', 'wh-1'], 'an unknown status is no filter');
  t.same(ids({ event: 'repo.content' }), ['wh-2'], 'a scope');
  t.same(ids({ event: 'discussion.comment:create' }), ['wh-4'], 'scope:action');
  t.same(ids({ repo: 'GPT2' }), ['wh-2'], 'a part of the repository name, any case');
  t.same(ids({ from: '2026-11-27T10:02:00Z', to: '2026-11-27T10:03:00Z' }), ['wh-3', 'wh-2']);
  t.same(ids({ q: 'keyerror TRACEBACK' }), ['wh-2'], 'every word, in the answer too');
  t.same(ids({ q: 'refs/pr/5 openai' }), ['wh-2'], 'and in the body');
  t.same(ids({ from: 'not a time' }), ['wh-4', 'wh-3', 'wh-2', 'wh-1']);
  const [first] = index.filter({}).deliveries;
  const again = new DeliveryIndex();
  again.add([...entries].reverse());
  t.ok(again.get(first!.id), 'an id survives a reload of the journal');
  t.equal(index.filter({}, 2).deliveries.length, 2, 'a limit');
  t.equal(index.filter({}, 2).matched, 4, 'and how many matched in all');
  index.setReplays([
    {
      webhookId: 'wh-2',
      receivedAt: entries[1]!.receivedAt,
      at: '2026-11-27T11:00:00.000Z',
      to: 'x',
      status: 200,
      ms: 1,
      verdict: 'fixed',
      by: 'inspect',
    },
  ]);
  t.equal(index.get(index.filter(parseFilter({ status: 'failed' })).deliveries[0]!.id)?.summary.verdict, 'fixed');
  t.end();
});

t.test('diff, redaction, the token', (t) => {
  t.same(jsonDiff({ a: 1, b: { c: [1, 2] }, d: 'x' }, { a: 2, b: { c: [1] }, e: null }), [
    { path: 'a', kind: 'changed', before: 1, after: 2 },
    { path: 'b.c[1]', kind: 'removed', before: 2 },
    { path: 'd', kind: 'removed', before: 'x' },
    { path: 'e', kind: 'added', after: null },
  ]);
  t.same(jsonDiff({ a: [] }, { a: [] }), []);
  t.same(redactHeaders({ 'x-webhook-secret': 's', authorization: 'Bearer x', cookie: 'c', 'x-api-key': 'k', 'user-agent': 'ua' }), {
    'x-webhook-secret': '[redacted]',
    authorization: '[redacted]',
    cookie: '[redacted]',
    'x-api-key': '[redacted]',
    'user-agent': 'ua',
  });
  t.equal(redactSecrets('a s3cr3t-value b s3cr3t-value', ['s3cr3t-value', 'ab']), 'a [redacted] b [redacted]');
  const valid = tokenChecker('the-token');
  t.ok(valid('the-token'));
  t.notOk(valid('the-toke'));
  t.notOk(valid(undefined));
  t.equal(presentedToken({ token: 'q' }, 'hub_inspect=c', 'Bearer b'), 'q');
  t.equal(presentedToken({}, 'other=1; hub_inspect=c%3D', 'Bearer b'), 'c=');
  t.equal(presentedToken({}, undefined, 'Bearer b'), 'b');
  t.equal(presentedToken(undefined, undefined, undefined), undefined);
  t.end();
});
