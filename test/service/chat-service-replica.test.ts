import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { defaultState } from '../../src/emotions/state.js';
import { toEmotionsFile } from '../../src/persistence/emotions-file.js';
import { redisKeys } from '../../src/redis/keys.js';
import { replayMoodStream } from '../../src/redis/mood-history.js';
import { loadMoodSnapshot } from '../../src/redis/mood-snapshot.js';
import { replayEventLog } from '../../src/replay/replay.js';
import { eventually } from '../../testkit/eventually.js';
import { startRealService } from '../support/real-service.js';
import { redisClient, startRedisServer } from '../support/redis-server.js';
import { completion, modelList } from '../../testkit/provider-wire.js';
import { mockProviderHttp, mockedProvider } from '../../testkit/provider-nock.js';

// The composition root in this process with REDIS_URL: the choice of adapters, and what it
// leaves behind. test/service/replicas-e2e.test.ts runs replicas as `hub serve` processes.
mockProviderHttp(t, '127.0.0.1');

const REPLICA = { LLM_API_KEY: 'sk-test-replica', DRIFT_INTERVAL_MS: '86400000' };

function provider(): void {
  const provider = mockedProvider();
  provider.scope.persist();
  provider.models().reply(200, modelList());
  provider.completions().reply(200, completion('Noted.'));
}

t.test('two services on one REDIS_URL share the mood; the first seeds it from its emotions file', async (t) => {
  provider();
  const redis = await startRedisServer(t);
  // Not testDir(t): startRealService empties that one.
  const dir = mkdtempSync(join(tmpdir(), 'emotion-hub-replica-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const own = (name: string) => ({ EMOTIONS_FILE: join(dir, `${name}.json`), EVENT_LOG: join(dir, `${name}.jsonl`) });
  // A single process's mood, carried over by the first replica ever.
  const carried = {
    ...defaultState('2026-11-20T08:00:00.000Z'),
    emotions: { joy: 0.9, sadness: 0.1, anger: 0.1, fear: 0.1, curiosity: 0.4 },
  };
  writeFileSync(own('a').EMOTIONS_FILE, JSON.stringify(toEmotionsFile(carried)));
  const first = await startRealService(t, { ...REPLICA, ...own('a'), REDIS_URL: redis.url, REDIS_PREFIX: 'one:' });
  await first.settled();
  // Once Redis holds the mood, a replica's own file is only a local copy: even a damaged one is not read.
  writeFileSync(own('b').EMOTIONS_FILE, '{"version": 1, "emo');
  const second = await startRealService(t, { ...REPLICA, ...own('b'), REDIS_URL: redis.url, REDIS_PREFIX: 'one:' });
  await second.settled();
  t.equal((await second.get('/api/avatar')).body.emotions.joy, 0.9, "the second starts from the first one's file, through Redis");
  t.match(
    first.logs.find((line) => String(line.msg).startsWith('this process is a replica')),
    { redis: redis.url, prefix: 'one:' },
  );

  const answer = await first.chat({ message: 'I love this' });
  t.equal(answer.status, 200);
  await eventually('the second replica to show the chat', async () => {
    const { body } = await second.get('/api/avatar');
    return JSON.stringify(body.emotions) === JSON.stringify(answer.body.emotions) ? true : undefined;
  });
  t.pass('a chat on one shows on the other');

  const client = await redisClient(t, redis.url);
  await first.service.close();
  t.equal(
    await redis.cli('CLIENT', 'LIST').then((list) => list.split('\n').filter((line) => / name=(commands|mood-stream) /.test(line)).length),
    2,
    'the first closed its two connections',
  );
  const snapshot = await loadMoodSnapshot(client, redisKeys('one:'));
  t.equal(snapshot?.position.seq, 1, 'the snapshot covers the chat');

  await second.service.close();
  const shared = (await replayMoodStream(client, redisKeys('one:'))).state;
  t.same(
    (await replayEventLog(own('b').EVENT_LOG)).emotions,
    shared.emotions,
    "the second replica's own event log replays to the shared state",
  );
});

t.test('a REDIS_URL nobody answers is a start-up error naming it without its password', async (t) => {
  await t.rejects(startRealService(t, { ...REPLICA, REDIS_URL: 'redis://:pw-x9@127.0.0.1:1/0' }), {
    name: 'ServiceStartError',
    message: /^REDIS_URL: cannot connect to Redis at redis:\/\/127\.0\.0\.1:1\/0: connect ECONNREFUSED/,
  });
});

t.test('a Redis with a password: the replica authenticates, and the password reaches no log line or error', async (t) => {
  provider();
  const redis = await startRedisServer(t);
  await redis.cli('CONFIG', 'SET', 'requirepass', 'pw-Zq81-secret');
  const url = redis.url.replace('redis://', 'redis://:pw-Zq81-secret@');
  const service = await startRealService(t, { ...REPLICA, REDIS_URL: url });
  await service.settled();
  t.equal((await service.chat({ message: 'I love this' })).status, 200, 'it works with the password');
  await service.service.close();
  t.match(JSON.stringify(service.logs), /this process is a replica on redis:\/\/127\.0\.0\.1:\d+\/0/);
  t.notMatch(JSON.stringify(service.logs), /pw-Zq81-secret/);

  const wrong = redis.url.replace('redis://', 'redis://:not-the-pw-7@');
  const error = (await startRealService(t, { ...REPLICA, REDIS_URL: wrong }).catch((e: unknown) => e)) as Error;
  t.match(error.message, /^REDIS_URL: cannot connect to Redis at redis:\/\/127\.0\.0\.1:\d+\/0: WRONGPASS/);
  t.notMatch(error.message, /not-the-pw-7/);
});

t.test('GET /api/mood/why answers the same on every replica, also on one that started after the changes', async (t) => {
  provider();
  const redis = await startRedisServer(t);
  const dir = mkdtempSync(join(tmpdir(), 'emotion-hub-replica-why-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const own = (name: string) => ({ EMOTIONS_FILE: join(dir, `${name}.json`) });
  const first = await startRealService(t, { ...REPLICA, ...own('a'), REDIS_URL: redis.url, REDIS_PREFIX: 'why:' });
  await first.settled();
  t.equal((await first.chat({ message: 'I am terrified of spiders' })).status, 200);
  t.equal((await first.chat({ message: 'This is outrageous, I hate it' })).status, 200);
  const second = await startRealService(t, { ...REPLICA, ...own('b'), REDIS_URL: redis.url, REDIS_PREFIX: 'why:' });
  await second.settled();
  t.equal((await second.chat({ message: 'How do volcanoes work?' })).status, 200);
  const why = await eventually('both replicas to explain the three chats alike', async () => {
    const [a, b] = await Promise.all([first.get('/api/mood/why'), second.get('/api/mood/why')]);
    return a.body.changes.length === 3 && JSON.stringify(a.body) === JSON.stringify(b.body) ? a.body : undefined;
  });
  t.same(
    why.changes.map(({ strongest }: { strongest: string }) => strongest),
    ['fear', 'anger', 'curiosity'],
  );
  for (const name of ['joy', 'sadness', 'anger', 'fear', 'curiosity'] as const) {
    const sum = why.changes.reduce(
      (total: number, change: { delta: Record<string, number> }) => total + change.delta[name]!,
      why.from[name],
    );
    t.ok(Math.abs(sum - why.emotions[name]) < 1e-9, `${name}: from + Σ delta = emotions`);
  }
});
