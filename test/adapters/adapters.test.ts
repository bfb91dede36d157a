import { existsSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { adapters, type SystemAdapters } from '../../src/adapters/adapters.js';
import { Bus } from '../../src/bus/bus.js';
import { loadChatConfig } from '../../src/config/chat-config.js';
import { MemoryConversationStore } from '../../src/conversations/memory-conversation-store.js';
import { DurableMoodLedger } from '../../src/embedded/durable-mood-ledger.js';
import { LmdbConversationStore } from '../../src/embedded/lmdb-conversation-store.js';
import { ALWAYS_HELD } from '../../src/mood-ledger/drift-lease.js';
import { LocalMoodLedger, MoodLedgerClosedError } from '../../src/mood-ledger/local-mood-ledger.js';
import type { MoodChange } from '../../src/mood-ledger/mood-ledger.js';
import { redisKeys } from '../../src/redis/keys.js';
import { RedisConversationStore } from '../../src/redis/redis-conversation-store.js';
import { RedisDriftLease } from '../../src/redis/redis-drift-lease.js';
import { RedisMoodLedger } from '../../src/redis/redis-mood-ledger.js';
import { RedisTurnLog } from '../../src/redis/redis-turn-log.js';
import { fixedClock, systemClock } from '../../src/runtime/clock.js';
import { openEmbeddedStore } from '../../src/embedded/embedded-store.js';
import { defaultState } from '../../src/emotions/state.js';
import { DEFAULT_MAX_SESSION_BYTES } from '../../src/config/defaults.js';
import { eventually } from '../../testkit/eventually.js';
import { capturedLogger } from '../support/captured-logger.js';
import { startRedisServer } from '../support/redis-server.js';
import { testDir } from '../support/test-dir.js';

const AT = '2026-11-26T08:00:00.000Z';
const DRIFT: MoodChange = { kind: 'drift', deltas: { joy: 0.01, sadness: 0, anger: 0, fear: 0, curiosity: 0 }, at: AT };

function deps() {
  const log = capturedLogger();
  return { log, deps: { bus: new Bus(), clock: fixedClock(AT), logger: log.logger } };
}

/** Notes, in `closed`, when each named adapter's close is called (then closes it as it would). */
function recordCloses(pieces: Record<string, { close(): Promise<void> }>, closed: string[], before: () => void = () => undefined) {
  for (const [name, piece] of Object.entries(pieces)) {
    const close = piece.close.bind(piece);
    piece.close = async () => {
      before();
      closed.push(name);
      await close();
    };
  }
}

t.test('in process when told, even with REDIS_URL: a ledger and a store of this process, nothing on disk, nothing to join', async (t) => {
  const dir = testDir(t);
  const { deps: runtime } = deps();
  const config = loadChatConfig({ EMOTIONS_FILE: join(dir, 'emotions.json'), REDIS_URL: 'redis://127.0.0.1:1/0' });
  const chosen = await adapters(config, { ...runtime, inProcess: true });
  t.equal(chosen.mode, 'in-process');
  const system = await chosen.forSystem();
  t.type(system.ledger, LocalMoodLedger);
  t.type(system.conversations, MemoryConversationStore);
  t.equal(system.driftLease, ALWAYS_HELD, 'it drifts alone');
  t.equal(system.ledger.held, undefined);
  t.equal(chosen.turns, undefined, 'the app keeps its own turn log');
  t.equal(chosen.sharedSessionSecret, undefined);
  t.notOk(existsSync(join(dir, 'emotions.db')), 'no database');

  const closed: string[] = [];
  recordCloses({ ledger: system.ledger, conversations: system.conversations }, closed);
  await chosen.close();
  t.same(closed, ['conversations', 'ledger'], 'the reverse of the order they were opened in');
  await t.rejects(system.ledger.append(DRIFT), MoodLedgerClosedError);
});

t.test('embedded by default: the database beside the emotions file opens only when the system asks for it', async (t) => {
  const dir = testDir(t);
  const { deps: runtime } = deps();
  const chosen = await adapters(loadChatConfig({ EMOTIONS_FILE: join(dir, 'emotions.json') }), runtime);
  t.equal(chosen.mode, 'embedded');
  t.equal(chosen.turns, undefined);
  t.equal(chosen.sharedSessionSecret, undefined);
  t.notOk(existsSync(join(dir, 'emotions.db')), 'not opened yet: the server listens first');
  const system = await chosen.forSystem();
  t.equal(await chosen.forSystem(), system, 'opened once');
  t.ok(existsSync(join(dir, 'emotions.db')));
  t.type(system.ledger, DurableMoodLedger);
  t.type(system.conversations, LmdbConversationStore);
  t.equal(system.driftLease, ALWAYS_HELD);

  // The hand-over of `--supervise`: what the process before committed after this one opened is taken, the mood too.
  system.ledger.startFrom(defaultState(AT));
  const predecessor = openEmbeddedStore(join(dir, 'emotions.json'), {
    maxSessions: 10,
    idleMs: 60_000,
    maxBytes: DEFAULT_MAX_SESSION_BYTES,
    clock: systemClock,
  });
  predecessor.ledger.startFrom(defaultState(AT));
  await predecessor.ledger.append(DRIFT);
  await predecessor.close();
  const delivered: string[] = [];
  system.ledger.subscribe((change) => delivered.push(change.kind));
  chosen.adoptPredecessorWrites();
  await eventually("the predecessor's mood", () => delivered.length === 1);
  t.same(delivered, ['snapshot']);

  // While the ledger and the store close, the database they live in is still open.
  const closed: string[] = [];
  const databaseOpen: boolean[] = [];
  const isOpen = (): boolean => {
    try {
      chosen.adoptPredecessorWrites(); // reads the conversations from the database
      return true;
    } catch {
      return false;
    }
  };
  recordCloses({ ledger: system.ledger, conversations: system.conversations }, closed, () => databaseOpen.push(isOpen()));
  await chosen.close();
  t.same(closed, ['conversations', 'ledger']);
  t.same(databaseOpen, [true, true], 'the database closes last');
  t.notOk(isOpen(), 'the database is closed');
  await t.rejects(system.ledger.append(DRIFT), MoodLedgerClosedError);
});

t.test('a close that fails is logged, and the rest still close', async (t) => {
  const { log, deps: runtime } = deps();
  const chosen = await adapters(loadChatConfig({ EMOTIONS_FILE: join(testDir(t), 'emotions.json') }), runtime);
  const system: SystemAdapters = await chosen.forSystem();
  system.conversations.close = async () => {
    throw new Error('the store would not close');
  };
  await chosen.close();
  await t.rejects(system.ledger.append(DRIFT), MoodLedgerClosedError, 'the ledger, opened before the store, closed');
  t.throws(() => chosen.adoptPredecessorWrites(), 'the database, opened first, closed');
  t.match(
    log.lines().filter((line) => line.level === 50),
    [{ adapter: 'conversation store', err: { message: 'the store would not close' } }],
  );
});

t.test('a damaged store file: an error that says what to do, and the adapters still close', async (t) => {
  const dir = testDir(t, { 'emotions.db': 'not an lmdb file at all' });
  const { deps: runtime } = deps();
  const chosen = await adapters(loadChatConfig({ EMOTIONS_FILE: join(dir, 'emotions.json') }), runtime);
  await t.rejects(chosen.forSystem(), { message: /^the conversation store .*emotions\.db is damaged: .*Move it away/ });
  await chosen.close();
});

t.test('Redis with REDIS_URL: the replica’s adapters; close hands the lease over and quits the connections last', async (t) => {
  const redis = await startRedisServer(t);
  const { deps: runtime } = deps();
  const chosen = await adapters(loadChatConfig({ EMOTIONS_FILE: join(testDir(t), 'emotions.json'), REDIS_URL: redis.url }), runtime);
  t.teardown(() => chosen.close());
  t.equal(chosen.mode, 'redis');
  const system = await chosen.forSystem();
  t.type(system.ledger, RedisMoodLedger);
  t.type(system.conversations, RedisConversationStore);
  t.type(system.driftLease, RedisDriftLease);
  t.type(chosen.turns, RedisTurnLog, "the app streams its turns to the replicas' log");
  t.equal(system.ledger.held?.where, 'shared', 'the shared state to start from');
  t.equal(await chosen.sharedSessionSecret?.('candidate'), 'candidate', 'the first replica to ask stores its secret');
  const connections = async () =>
    (await redis.cli('CLIENT', 'LIST')).split('\n').filter((line) => / name=(commands|mood-stream) /.test(line)).length;
  t.equal(await connections(), 2);
  await eventually('this replica to hold the drift lease', async () => (system.driftLease.held() ? true : undefined));

  const closed: string[] = [];
  recordCloses({ ledger: system.ledger, turns: chosen.turns!, conversations: system.conversations, lease: system.driftLease }, closed);
  await chosen.close();
  t.same(closed, ['lease', 'conversations', 'turns', 'ledger']);
  t.equal(await redis.cli('EXISTS', redisKeys().driftLease), '0', 'the lease was handed over, before its connection quit');
  t.equal(await connections(), 0, 'both connections quit');
});

t.test('a REDIS_URL nobody answers: an error naming it without its password', async (t) => {
  const { deps: runtime } = deps();
  const config = loadChatConfig({ EMOTIONS_FILE: join(testDir(t), 'emotions.json'), REDIS_URL: 'redis://:pw-x9@127.0.0.1:1/0' });
  const error = (await adapters(config, runtime).catch((caught: unknown) => caught)) as Error;
  t.match(error, { message: /^REDIS_URL: .*127\.0\.0\.1:1/ });
  t.notMatch(error.message, 'pw-x9');
});
