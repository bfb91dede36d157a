import t from 'tap';
import type { Test } from 'tap';
import { defaultState, foldMoodChange, type EmotionState } from '../../src/emotions/state.js';
import type { MoodChange } from '../../src/mood-ledger/mood-ledger.js';
import { RedisUnavailableError } from '../../src/redis/errors.js';
import { redisKeys, type RedisKeys } from '../../src/redis/keys.js';
import { replayMoodStream } from '../../src/redis/mood-history.js';
import { loadMoodSnapshot } from '../../src/redis/mood-snapshot.js';
import { RedisMoodLedger, type RedisMoodLedgerOptions } from '../../src/redis/redis-mood-ledger.js';
import { capturedLogger } from '../support/captured-logger.js';
import { eventually } from '../../testkit/eventually.js';
import { deliveredChanges } from '../support/delivered-changes.js';
import { redisClient, startRedisServer, type RedisServer } from '../support/redis-server.js';

const SEED: EmotionState = defaultState('2026-11-23T09:00:00.000Z');

const chat = (n: number, sentiment: 'positive' | 'negative' = 'positive'): MoodChange => ({
  kind: 'chat',
  correlationId: `chat-${n}`,
  sentiment: sentiment === 'positive' ? { sentiment, positive: 0.6, negative: 0 } : { sentiment, positive: 0, negative: 0.5 },
  at: `2026-11-23T09:00:${String(n % 60).padStart(2, '0')}.000Z`,
});

const drift = (n: number): MoodChange => ({
  kind: 'drift',
  deltas: { joy: 0.01 * n, sadness: -0.02, anger: 0.03, fear: -0.01, curiosity: 0.02 },
  at: `2026-11-23T09:01:${String(n % 60).padStart(2, '0')}.000Z`,
});

interface Replica {
  readonly ledger: RedisMoodLedger;
  readonly seen: MoodChange[];
  /** The ledger's log lines. */
  readonly lines: () => Record<string, unknown>[];
}

async function replica(t: Test, server: RedisServer, keys: RedisKeys, options: Partial<RedisMoodLedgerOptions> = {}): Promise<Replica> {
  const log = capturedLogger();
  const ledger = await RedisMoodLedger.open({
    client: await redisClient(t, server.url, { commandTimeoutMs: 500 }),
    reader: await redisClient(t, server.url, { name: 'reader' }),
    keys,
    logger: log.logger,
    seed: async () => SEED,
    appendTimeoutMs: 500,
    snapshotWindowMs: 20,
    ...options,
  });
  t.teardown(() => ledger.close());
  const seen = deliveredChanges(t, ledger);
  return { ledger, seen, lines: log.lines };
}

const fold = (changes: readonly MoodChange[], from = SEED): EmotionState => changes.reduce(foldMoodChange, from);

/** Waits until the shared snapshot is saved at entry `seq`. */
async function snapshotAt(t: Test, server: RedisServer, keys: RedisKeys, seq: number): Promise<void> {
  const client = await redisClient(t, server.url);
  await eventually(`the snapshot saved at entry ${seq}`, async () =>
    (await loadMoodSnapshot(client, keys))?.position.seq === seq ? true : undefined,
  );
}

/** A redis-server with two replicas on it, which have both applied `count` chats. */
async function twoReplicas(t: Test, prefix: string, count: number) {
  const server = await startRedisServer(t);
  const keys = redisKeys(prefix);
  const a = await replica(t, server, keys);
  const b = await replica(t, server, keys);
  for (let n = 0; n < count; n++) await a.ledger.append(chat(n));
  await eventually(`${count} changes on both`, () => (a.seen.length === count && b.seen.length === count ? true : undefined));
  // A snapshot save still in flight would write the mood back by itself after a loss, unremarked.
  await snapshotAt(t, server, keys, count);
  return { server, keys, a, b };
}

/** Appends `change` as soon as the ledger takes it: an append that fails changes nothing, so trying again is safe. */
const appendOnceBack = (what: string, ledger: RedisMoodLedger, change: MoodChange): Promise<true> =>
  eventually(what, () =>
    ledger.append(change).then(
      () => true as const,
      () => undefined,
    ),
  );

t.test('replicas apply every change once, in one order, and agree with the replay and the arithmetic', async (t) => {
  const server = await startRedisServer(t);
  const keys = redisKeys('test:');
  const a = await replica(t, server, keys);
  const b = await replica(t, server, keys);
  const changes = Array.from({ length: 40 }, (_, n) => (n % 5 === 4 ? drift(n) : chat(n, n % 3 === 0 ? 'negative' : 'positive')));
  // What each delivery says the state after it is: the ledger's one fold, which nobody repeats.
  const states: EmotionState[] = [];
  t.teardown(b.ledger.subscribe((_change, state) => states.push(state)));
  // Both replicas append at once: the stream decides the one order.
  await Promise.all(changes.map((change, n) => (n % 2 === 0 ? a : b).ledger.append(change)));
  await eventually('both replicas to see 40 changes', () => (a.seen.length === 40 && b.seen.length === 40 ? true : undefined));
  t.same(b.seen, a.seen, 'the same changes in the same order');
  t.same(
    [...a.seen].sort((x, y) => x.at.localeCompare(y.at) || JSON.stringify(x).localeCompare(JSON.stringify(y))),
    [...changes].sort((x, y) => x.at.localeCompare(y.at) || JSON.stringify(x).localeCompare(JSON.stringify(y))),
    'every appended change, each once',
  );
  t.same(a.ledger.state, fold(a.seen), 'the state is the fold of the delivered changes');
  t.same(b.ledger.state, a.ledger.state);
  t.same(
    states,
    b.seen.map((_, n) => fold(b.seen.slice(0, n + 1))),
    'each change delivered with the state right after it',
  );
  const client = await redisClient(t, server.url);
  t.same((await replayMoodStream(client, keys)).state, a.ledger.state, 'the replay of snapshot + stream gives the same state');
});

t.test('the first replica seeds the snapshot; a later one starts from the snapshot and the stream after it', async (t) => {
  const server = await startRedisServer(t);
  const keys = redisKeys('seed:');
  const first = await replica(t, server, keys, { seed: async () => ({ ...SEED, emotions: { ...SEED.emotions, joy: 0.9 } }) });
  t.equal(first.ledger.state.emotions.joy, 0.9, 'no snapshot yet: the seed is the state');
  for (let n = 0; n < 5; n++) await first.ledger.append(chat(n));
  await eventually('five changes', () => (first.seen.length === 5 ? true : undefined));
  const client = await redisClient(t, server.url);
  await eventually('the coalesced snapshot to cover all five', async () =>
    (await loadMoodSnapshot(client, keys))?.position.seq === 5 ? true : undefined,
  );
  await first.ledger.append(drift(1)); // after the snapshot: read from the stream by the next replica
  await eventually('six changes', () => (first.seen.length === 6 ? true : undefined));
  const later = await replica(t, server, keys, { seed: async () => t.fail('read a seed although Redis has a snapshot') as never });
  t.same(later.ledger.state, first.ledger.state, 'snapshot + stream = the running replica; its own seed is not even read');
  t.equal(later.seen.length, 0, 'nothing from before it started is delivered again');
  await later.ledger.append(chat(9));
  await eventually('both to see the new change', () => (later.seen.length === 1 && first.seen.length === 7 ? true : undefined));
  t.same(later.ledger.state, first.ledger.state);
});

t.test('the stream is trimmed behind the snapshot, and the replay still gives the state', async (t) => {
  const server = await startRedisServer(t);
  const keys = redisKeys('trim:');
  const a = await replica(t, server, keys, { retentionMs: 0 });
  for (let n = 0; n < 10; n++) await a.ledger.append(chat(n));
  await eventually('the snapshot to cover all ten', async () =>
    (await server.cli('HGET', keys.moodSnapshot, 'seq')) === '10' ? true : undefined,
  );
  t.ok(Number(await server.cli('XLEN', keys.moodStream)) <= 1, 'entries the snapshot covers are gone');
  const client = await redisClient(t, server.url);
  t.same((await replayMoodStream(client, keys)).state, a.ledger.state);
  t.same(a.ledger.state, fold(a.seen));
});

t.test('entries missing from the stream are logged as lost, and the replica goes on after them', async (t) => {
  const server = await startRedisServer(t);
  const keys = redisKeys('gap:');
  const a = await replica(t, server, keys);
  await a.ledger.append(chat(1));
  await eventually('the first change', () => (a.seen.length === 1 ? true : undefined));
  // Entry 2 is gone from Redis (as if the stream key had lost it), and no snapshot covers it.
  await server.cli('SET', keys.moodSequence, '2');
  await a.ledger.append(chat(3));
  await eventually('the change after the gap', () => (a.seen.length === 2 ? true : undefined));
  t.match(a.lines(), [{ level: 50, msg: /entries 2 to 2 are lost: Redis no longer holds them and no snapshot covers them/ }]);
  t.same(a.ledger.state, fold(a.seen), 'it still folds what it was given');
  await a.ledger.append(chat(4));
  await eventually('the next change', () => (a.seen.length === 3 ? true : undefined));
});

t.test('a replica that missed trimmed entries takes the shared snapshot, and says they were trimmed', async (t) => {
  const server = await startRedisServer(t);
  const keys = redisKeys('trimmed:');
  const a = await replica(t, server, keys, { retentionMs: 0 });
  await a.ledger.append(chat(1));
  await eventually('a sees it', () => (a.seen.length === 1 ? true : undefined));
  // b joins at entry 1 but reads nothing yet (a ledger follows the stream once subscribed)…
  const log = capturedLogger();
  const b = await RedisMoodLedger.open({
    client: await redisClient(t, server.url, { commandTimeoutMs: 500 }),
    reader: await redisClient(t, server.url, { name: 'reader' }),
    keys,
    logger: log.logger,
    seed: async () => SEED,
  });
  t.teardown(() => b.close());
  // …while a's entries 1 and 2 are trimmed under its snapshot at entry 3.
  for (let n = 2; n <= 3; n++) await a.ledger.append(chat(n));
  await eventually('the snapshot at entry 3', async () =>
    (await server.cli('HGET', keys.moodSnapshot, 'seq')) === '3' ? true : undefined,
  );
  t.equal(await server.cli('XLEN', keys.moodStream), '1', 'only entry 3 is left');
  const seen = deliveredChanges(t, b);
  await eventually('b to take the snapshot', () => (seen.length === 1 ? true : undefined));
  t.match(seen, [{ kind: 'snapshot', state: a.ledger.state }]);
  t.same(b.state, a.ledger.state);
  t.match(log.lines(), [
    { level: 40, msg: /entries 2 to 2 were trimmed before this replica applied them.*taking the shared snapshot at entry 3/ },
  ]);
  await a.ledger.append(chat(4));
  await eventually('b to read on after it', () => (seen.length === 2 ? true : undefined));
  t.same(b.state, a.ledger.state);
});

const BAD_ENTRIES: [string, string][] = [
  [
    'sentiment 1e308',
    '{"kind":"chat","correlationId":"x","sentiment":{"sentiment":"positive","positive":1e308,"negative":0},"at":"2026-11-23T09:00:00.000Z"}',
  ],
  ['a time that is not a date', '{"kind":"drift","deltas":{"joy":0,"sadness":0,"anger":0,"fear":0,"curiosity":0},"at":"yesterday"}'],
  ['a delta of 5', '{"kind":"drift","deltas":{"joy":5,"sadness":0,"anger":0,"fear":0,"curiosity":0},"at":"2026-11-23T09:00:00.000Z"}'],
  ['an unknown kind', '{"kind":"mystery","at":"2026-11-23T09:00:00.000Z"}'],
  ['no JSON', 'not json'],
];

for (const [name, change] of BAD_ENTRIES) {
  t.test(`an entry with ${name} is refused and logged by every replica, and blocks neither a restart nor the replay`, async (t) => {
    const server = await startRedisServer(t);
    const keys = redisKeys('bad:');
    const a = await replica(t, server, keys);
    const b = await replica(t, server, keys);
    await a.ledger.append(chat(1));
    // Numbered as the ledger's script numbers entries, but with a change no replica may apply.
    const seq = await server.cli('INCR', keys.moodSequence);
    await server.cli('XADD', keys.moodStream, '*', 'seq', seq, 'change', change);
    await a.ledger.append(chat(3));
    await eventually('both to apply the entries around it', () => (a.seen.length === 2 && b.seen.length === 2 ? true : undefined));
    for (const { lines } of [a, b]) t.match(lines(), [{ level: 50, msg: /^mood stream entry 2 \(.*\) refused: .*it is not applied/ }]);
    t.same(a.seen, b.seen);
    t.same(a.ledger.state, fold(a.seen), 'the refused entry changed nothing');
    const restarted = await replica(t, server, keys, { seed: async () => t.fail('the snapshot is there') as never });
    t.same(restarted.ledger.state, a.ledger.state, 'a restart gets through the stream');
    const client = await redisClient(t, server.url);
    t.same((await replayMoodStream(client, keys)).state, a.ledger.state, 'so does the replay');
  });
}

t.test('Redis stopped and started again: appends fail fast, then everything committed is there, applied once', async (t) => {
  const { server, keys, a, b } = await twoReplicas(t, 'restart:', 5);

  await server.stop();
  const started = Date.now();
  const error = await a.ledger.append(chat(50)).catch((e: unknown) => e);
  t.type(error, RedisUnavailableError, 'an append while Redis is away rejects');
  t.ok(Date.now() - started < 500, 'at once, not after a timeout');
  t.match((error as Error).message, /^Redis is unavailable: cannot record the mood change/);

  await server.start();
  await appendOnceBack('the client to be back', a.ledger, chat(6));
  // b's own connection reconnects in its own time: until then its append fails and changes nothing.
  await appendOnceBack('b to be back', b.ledger, drift(7));
  await eventually('both to see seven changes', () => (a.seen.length === 7 && b.seen.length === 7 ? true : undefined));
  t.same(a.seen, b.seen);
  t.notOk(
    a.seen.some((change) => change.kind === 'chat' && change.correlationId === 'chat-50'),
    'the failed append never took effect',
  );
  t.equal(await server.cli('XLEN', keys.moodStream), '7', 'seven entries: none written twice');
  const client = await redisClient(t, server.url);
  t.same((await replayMoodStream(client, keys)).state, a.ledger.state);
  t.same(b.ledger.state, a.ledger.state);
});

t.test('an append Redis runs after its caller gave up never takes effect', async (t) => {
  const server = await startRedisServer(t);
  const keys = redisKeys('frozen:');
  const a = await replica(t, server, keys, { appendTimeoutMs: 300 });
  await a.ledger.append(chat(1));
  server.freeze();
  const error = await a.ledger.append(chat(2)).catch((e: unknown) => e);
  server.thaw();
  t.type(error, RedisUnavailableError);
  t.match((error as Error).message, /timed out/);
  await a.ledger.append(chat(3));
  await eventually('two changes', () => (a.seen.length === 2 ? true : undefined));
  t.same(
    a.seen.map((change) => (change.kind === 'chat' ? change.correlationId : '')),
    ['chat-1', 'chat-3'],
    'the late append was refused by Redis itself',
  );
});

t.test('append after close rejects; close is idempotent', async (t) => {
  const server = await startRedisServer(t);
  const a = await replica(t, server, redisKeys('closed:'));
  await Promise.all([a.ledger.close(), a.ledger.close()]);
  await t.rejects(a.ledger.append(chat(1)), { name: 'RedisUnavailableError', message: 'the mood ledger is closed' });
});

t.test('a stream key briefly unusable: appends fail and take no number, reads are logged once, then all goes on', async (t) => {
  const server = await startRedisServer(t);
  const keys = redisKeys('wrongtype:');
  const a = await replica(t, server, keys);
  const b = await replica(t, server, keys);
  await a.ledger.append(chat(1));
  await eventually('both see entry 1', () => (a.seen.length === 1 && b.seen.length === 1 ? true : undefined));
  await server.cli('DEL', keys.moodStream);
  await server.cli('SET', keys.moodStream, 'not a stream');
  const lines = () => a.lines().filter((line) => String(line.msg).startsWith('cannot read the mood stream'));
  await eventually('the error line', () => (lines().length > 0 ? true : undefined));
  for (let n = 0; n < 5; n++)
    await t.rejects(b.ledger.append(chat(10 + n)), RedisUnavailableError, 'an append fails while the key is unusable');
  t.equal(await server.cli('GET', keys.moodSequence), '1', 'the failed appends took no number');
  t.equal(lines().length, 1, 'logged once, not at every retry');
  t.match(lines()[0], { level: 50, reason: /WRONGTYPE/ });
  await server.cli('DEL', keys.moodStream);
  await a.ledger.append(chat(2));
  await b.ledger.append(drift(3));
  await eventually('both to read again', () => (a.seen.length === 3 && b.seen.length === 3 ? true : undefined));
  t.same(a.seen, b.seen);
  t.notMatch(
    [...a.lines(), ...b.lines()].map((line) => line.msg),
    /lost|trimmed|refused/,
    'no gap: no number was burnt',
  );
  const restarted = await replica(t, server, keys);
  t.same(restarted.ledger.state, a.ledger.state, 'a restart still agrees');
});

t.test('a subscriber that throws is logged; the others still get every change', async (t) => {
  const server = await startRedisServer(t);
  const log = capturedLogger();
  const a = await replica(t, server, redisKeys('throws:'), { logger: log.logger });
  const unsubscribe = a.ledger.subscribe(() => {
    throw new Error('subscriber bug');
  });
  await a.ledger.append(chat(1));
  await eventually('the change', () => (a.seen.length === 1 ? true : undefined));
  t.match(log.lines(), [{ level: 50, msg: 'a mood ledger subscriber failed', err: { message: 'subscriber bug' } }]);
  unsubscribe();
  await a.ledger.append(chat(2));
  await eventually('the next change', () => (a.seen.length === 2 ? true : undefined));
  t.equal(log.lines().length, 1, 'an unsubscribed one is not called');
});

t.test('a reader back after the others moved on reads each entry it missed, not the snapshot saved past them', async (t) => {
  const server = await startRedisServer(t);
  const keys = redisKeys('late-reader:');
  const reader = await redisClient(t, server.url, { name: 'late-reader' });
  const a = await replica(t, server, keys, { reader });
  const b = await replica(t, server, keys);
  await b.ledger.append(chat(1));
  await eventually('both see entry 1', () => (a.seen.length === 1 && b.seen.length === 1 ? true : undefined));
  reader.disconnect();
  // Until Redis has dropped the connection, its blocked read would still be answered.
  await eventually('Redis to drop the reader', async () =>
    /name=late-reader/.test(String(await server.cli('CLIENT', 'LIST'))) ? undefined : true,
  );
  await b.ledger.append(chat(2));
  await b.ledger.append(drift(3));
  await snapshotAt(t, server, keys, 3);
  t.equal(a.seen.length, 1, 'a read nothing while its reader was away');
  await reader.connect();
  await eventually('a to catch up', () => (a.seen.length >= 3 ? true : undefined));
  t.same(a.seen, b.seen, 'the entries themselves, in order');
  t.same(a.ledger.state, b.ledger.state);
});

const LOSSES: [string, (server: RedisServer) => Promise<unknown>][] = [
  ['restarted without persistence', (server) => server.restartEmpty()],
  ['flushed', (server) => server.cli('FLUSHALL')],
];

for (const [name, lose] of LOSSES) {
  t.test(`Redis ${name}: the replicas notice, write back the newest state they hold, and agree again`, async (t) => {
    const { server, keys, a, b } = await twoReplicas(t, 'emptied:', 3);
    const before = a.ledger.state;
    await lose(server);
    // Until a replica has written the mood back, an append is refused, not numbered from 1 again.
    await eventually('the mood written back, appends taken again', () =>
      b.ledger.append(drift(4)).then(
        () => true,
        () => undefined,
      ),
    );
    await eventually('both to apply the change after the loss', () => (a.seen.length === 4 && b.seen.length === 4 ? true : undefined));
    t.same(a.seen, b.seen);
    t.same(a.ledger.state, fold(a.seen.slice(3), before), 'the change after the loss applies to the state before it');
    t.same(b.ledger.state, a.ledger.state);
    t.equal(await server.cli('GET', keys.moodSequence), '4', 'numbered 4: after the state written back');
    // The replica that noticed may log it just after the agreed state is visible: wait for the line.
    const said = () => [...a.lines(), ...b.lines()].filter((line) => /^Redis lost the shared mood/.test(String(line.msg)));
    await eventually('a replica to say what happened', () => (said().length > 0 ? true : undefined));
    t.ok(said().length >= 1, 'a replica says what happened');
    t.notMatch(
      [...a.lines(), ...b.lines()].map((line) => line.msg),
      /trimmed/,
      'not blamed on trimming',
    );
    const restarted = await replica(t, server, keys, { seed: async () => t.fail('the snapshot is back') as never });
    t.same(restarted.ledger.state, a.ledger.state, 'a replica that starts now agrees');
  });
}

t.test('Redis restarted empty under replicas at different entries: the highest entry number wins', async (t) => {
  const server = await startRedisServer(t);
  const keys = redisKeys('newest:');
  const a = await replica(t, server, keys);
  const b = await replica(t, server, keys);
  await a.ledger.append(chat(1));
  await eventually('both at entry 1', () => (a.seen.length === 1 && b.seen.length === 1 ? true : undefined));
  server.freeze();
  server.thaw();
  await a.ledger.append(chat(2));
  await eventually('both at entry 2', () => (a.seen.length === 2 && b.seen.length === 2 ? true : undefined));
  await server.restartEmpty();
  await appendOnceBack('appends taken again', b.ledger, drift(3));
  await eventually('both apply it', () => (a.seen.length === 3 && b.seen.length === 3 ? true : undefined));
  t.same(b.ledger.state, a.ledger.state);
  t.equal((await server.cli('HGET', keys.moodSnapshot, 'seq').then(Number)) >= 2, true, 'the snapshot written back is at entry 2 or later');
});
