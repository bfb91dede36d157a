import t from 'tap';
import { Bus } from '../../src/bus/bus.js';
import type { Test } from 'tap';
import { defaultState, foldMoodChange, type EmotionState } from '../../src/emotions/state.js';
import type { MoodChange } from '../../src/mood/mood-ledger.js';
import { RedisUnavailableError } from '../../src/redis/errors.js';
import { redisKeys, type RedisKeys } from '../../src/redis/keys.js';
import { MoodStreamGapError, replayMoodStream } from '../../src/redis/mood-history.js';
import { loadMoodSnapshot } from '../../src/redis/mood-snapshot.js';
import { RedisMoodLedger, type RedisMoodLedgerOptions } from '../../src/redis/redis-mood-ledger.js';
import { capturedLogger } from '../support/captured-logger.js';
import { eventually } from '../support/eventually.js';
import { runMoodOwner } from '../support/mood-owner.js';
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
  readonly failures: Error[];
}

async function replica(t: Test, server: RedisServer, keys: RedisKeys, options: Partial<RedisMoodLedgerOptions> = {}): Promise<Replica> {
  const failures: Error[] = [];
  const bus = new Bus();
  const ledger = await RedisMoodLedger.open({
    bus,
    client: await redisClient(t, server.url, { commandTimeoutMs: 500 }),
    reader: await redisClient(t, server.url, { name: 'reader' }),
    keys,
    logger: capturedLogger().logger,
    seed: async () => SEED,
    appendTimeoutMs: 500,
    snapshotWindowMs: 20,
    onFailure: (error) => failures.push(error),
    ...options,
  });
  t.teardown(() => ledger.close());
  const seen = runMoodOwner(t, bus, ledger, ledger.state);
  return { ledger, seen, failures };
}

const fold = (changes: readonly MoodChange[], from = SEED): EmotionState => changes.reduce(foldMoodChange, from);

t.test('replicas apply every change once, in one order, and agree with the replay and the arithmetic', async (t) => {
  const server = await startRedisServer(t);
  const keys = redisKeys('test:');
  const a = await replica(t, server, keys);
  const b = await replica(t, server, keys);
  const changes = Array.from({ length: 40 }, (_, n) => (n % 5 === 4 ? drift(n) : chat(n, n % 3 === 0 ? 'negative' : 'positive')));
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
  const client = await redisClient(t, server.url);
  t.same((await replayMoodStream(client, keys)).state, a.ledger.state, 'the replay of snapshot + stream gives the same state');
  t.same(a.failures, []);
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

t.test('a replica that finds entries missing stops following and says so', async (t) => {
  const server = await startRedisServer(t);
  const keys = redisKeys('gap:');
  const a = await replica(t, server, keys);
  await a.ledger.append(chat(1));
  await eventually('the first change', () => (a.seen.length === 1 ? true : undefined));
  // Entry 2 never reaches this replica: as if it had been trimmed while the replica was away.
  await server.cli('SET', keys.moodSequence, '2');
  await a.ledger.append(chat(3));
  const failure = await eventually('the failure', () => a.failures[0]);
  t.type(failure, MoodStreamGapError);
  t.match(failure.message, /from entry 1 to entry 3/);
  t.equal(a.seen.length, 1, 'nothing after the gap is applied');
});

t.test('an entry no replica can read is a failure, not a crash', async (t) => {
  const server = await startRedisServer(t);
  const keys = redisKeys('bad:');
  const a = await replica(t, server, keys);
  await server.cli('XADD', keys.moodStream, '*', 'seq', '1', 'change', '{"kind":"mystery"}');
  const failure = await eventually('the failure', () => a.failures[0]);
  t.match(failure.message, /is not a mood change this version can apply/);
});

t.test('Redis stopped and started again: appends fail fast, then everything committed is there, applied once', async (t) => {
  const server = await startRedisServer(t);
  const keys = redisKeys('restart:');
  const a = await replica(t, server, keys);
  const b = await replica(t, server, keys);
  for (let n = 0; n < 5; n++) await a.ledger.append(chat(n));
  await eventually('five changes on both', () => (a.seen.length === 5 && b.seen.length === 5 ? true : undefined));

  await server.stop();
  const started = Date.now();
  const error = await a.ledger.append(chat(50)).catch((e: unknown) => e);
  t.type(error, RedisUnavailableError, 'an append while Redis is away rejects');
  t.ok(Date.now() - started < 500, 'at once, not after a timeout');
  t.match((error as Error).message, /^Redis is unavailable: cannot record the mood change/);

  await server.start();
  await eventually('the client to be back', () =>
    a.ledger.append(chat(6)).then(
      () => true,
      () => undefined,
    ),
  );
  // b's own connection reconnects in its own time: until then its append fails and changes nothing.
  await eventually('b to be back', () =>
    b.ledger.append(drift(7)).then(
      () => true,
      () => undefined,
    ),
  );
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

t.test('a stream key of the wrong type is logged once and read again until it is right', async (t) => {
  const server = await startRedisServer(t);
  const keys = redisKeys('wrongtype:');
  const log = capturedLogger();
  const a = await replica(t, server, keys, { logger: log.logger });
  await server.cli('DEL', keys.moodStream);
  await server.cli('SET', keys.moodStream, 'not a stream');
  const lines = () => log.lines().filter((line) => String(line.msg).startsWith('cannot read the mood stream'));
  await eventually('the error line', () => (lines().length > 0 ? true : undefined));
  await new Promise((resolve) => setTimeout(resolve, 300)); // several retries
  t.equal(lines().length, 1, 'logged once, not at every retry');
  t.match(lines()[0], { level: 50, reason: /WRONGTYPE/ });
  await server.cli('DEL', keys.moodStream);
  await a.ledger.append(chat(1));
  await eventually('the ledger to read again', () => (a.seen.length === 1 ? true : undefined));
  t.same(a.failures, []);
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

t.test('Redis back without its data: the numbering starts over, which a replica reports instead of applying', async (t) => {
  const server = await startRedisServer(t);
  const keys = redisKeys('flushed:');
  const a = await replica(t, server, keys);
  for (let n = 0; n < 3; n++) await a.ledger.append(chat(n));
  await eventually('three changes', () => (a.seen.length === 3 ? true : undefined));
  await server.cli('FLUSHALL');
  await a.ledger.append(chat(9));
  const failure = await eventually('the failure', () => a.failures[0]);
  t.match(failure.message, /went from entry 3 to entry 1/);
  t.equal(a.seen.length, 3);
});
