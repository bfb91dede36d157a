import { settings } from '@oclif/core';
import { runCommand } from '@oclif/test';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { readEventLog } from '../../src/bus/event-log-reader.js';
import { defaultState, foldMoodChange, REPLAY_START } from '../../src/emotions/state.js';
import type { MoodChange } from '../../src/mood-ledger/mood-ledger.js';
import { serializeState } from '../../src/persistence/emotions-file.js';
import { redisKeys } from '../../src/redis/keys.js';
import { RedisMoodLedger } from '../../src/redis/redis-mood-ledger.js';
import { capturedLogger } from '../support/captured-logger.js';
import { eventually } from '../../testkit/eventually.js';
import { deliveredChanges } from '../support/delivered-changes.js';
import { redisClient, startRedisServer } from '../support/redis-server.js';
import { requireBuilt, ROOT } from '../support/built-cli.js';
import { testDir } from '../support/test-dir.js';
import { untraced } from '../../testkit/untraced.js';

settings.enableAutoTranspile = false;
t.afterEach(() => {
  process.exitCode = undefined;
});

const root = ROOT;
const fixtures = join(root, 'test', 'fixtures', 'event-logs');
const loaded = JSON.stringify({
  type: 'emotions.loaded',
  at: '2026-11-21T10:00:00.000Z',
  emotions: { joy: 0.5, sadness: 0.1, anger: 0.1, fear: 0.1, curiosity: 0.5 },
  avatarShape: 'Circle',
  sentiment: { sentiment: 'neutral', positive: 0, negative: 0 },
  lastUpdated: '2026-11-21T10:00:00.000Z',
  source: 'file',
});

t.test('hub replay FILE prints the final state in the emotions.json layout', async (t) => {
  const { stdout, error } = await runCommand(['replay', join(fixtures, 'session.jsonl')], { root });
  t.equal(error, undefined);
  t.equal(stdout, readFileSync(join(fixtures, 'session.emotions.json'), 'utf8'));
});

t.test('a truncated tail gives a warning on stderr and still the state', async (t) => {
  const { stdout, stderr, error } = await runCommand(['replay', join(fixtures, 'truncated.jsonl')], { root });
  t.equal(error, undefined);
  t.match(stderr, /^warning: .*truncated\.jsonl:47: skipped a truncated last line/);
  t.match(JSON.parse(stdout), { version: 1, emotions: { joy: Number } });
});

t.test('a malformed log is a clear error naming the line, with a non-zero exit', async (t) => {
  const { stdout, error } = await runCommand(['replay', join(fixtures, 'malformed.jsonl')], { root });
  t.equal(stdout, '');
  t.match(error, { message: /cannot replay .*malformed\.jsonl:13: malformed JSON/, oclif: { exit: 1 } });
});

t.test('a missing file is a clear error', async (t) => {
  const { error } = await runCommand(['replay', join(fixtures, 'absent.jsonl')], { root });
  t.match(error, { message: /cannot replay .*absent\.jsonl: ENOENT/, oclif: { exit: 1 } });
});

t.test('a drift line whose deltas are empty or missing is an error naming the file, line and field', async (t) => {
  const dir = testDir(t, {
    'empty-deltas.jsonl': `${loaded}\n{"type":"emotions.drifted","at":"2026-11-21T10:00:01.000Z","deltas":{}}\n`,
    'no-deltas.jsonl': `${loaded}\n{"type":"emotions.drifted","at":"2026-11-21T10:00:01.000Z"}\n`,
    'string-delta.jsonl': `${loaded}\n{"type":"emotions.drifted","at":"2026-11-21T10:00:01.000Z","deltas":{"joy":"a lot","sadness":0,"anger":0,"fear":0,"curiosity":0}}\n`,
  });
  const cases: Array<[string, RegExp]> = [
    ['empty-deltas', /empty-deltas\.jsonl:2: emotions\.drifted: \/deltas\/joy: required, \/deltas\/sadness: required/],
    ['no-deltas', /no-deltas\.jsonl:2: emotions\.drifted: \/deltas: required$/],
    ['string-delta', /string-delta\.jsonl:2: emotions\.drifted: \/deltas\/joy: expected number$/],
  ];
  for (const [name, pattern] of cases) {
    const { stdout, error } = await runCommand(['replay', join(dir, `${name}.jsonl`)], { root });
    t.equal(stdout, '', `${name}: nothing printed`);
    t.match(error, { message: pattern, oclif: { exit: 1 } }, name);
  }
});

t.test('an empty log, or one with no event that sets a state, says so with a non-zero exit', async (t) => {
  const dir = testDir(t, {
    'empty.jsonl': '',
    'status-only.jsonl': '{"type":"status.requested","at":"2026-11-21T10:00:00.000Z","correlationId":"a"}\n',
  });
  const empty = await runCommand(['replay', join(dir, 'empty.jsonl')], { root });
  t.equal(empty.stdout, '');
  t.match(empty.error, { message: /cannot replay .*empty\.jsonl: the log holds no events/, oclif: { exit: 1 } });
  const statusOnly = await runCommand(['replay', join(dir, 'status-only.jsonl')], { root });
  t.equal(statusOnly.stdout, '');
  t.match(statusOnly.error, { message: /status-only\.jsonl: none of its 1 events sets a state/, oclif: { exit: 1 } });
});

t.test('hub replay --redis prints the state the shared snapshot and stream replay to', async (t) => {
  const server = await startRedisServer(t);
  const keys = redisKeys('replay-test:');
  const seed = defaultState('2026-11-23T09:00:00.000Z');
  const ledger = await RedisMoodLedger.open({
    client: await redisClient(t, server.url),
    reader: await redisClient(t, server.url),
    keys,
    logger: capturedLogger().logger,
    seed: async () => seed,
    snapshotWindowMs: 1,
  });
  t.teardown(() => ledger.close());
  const delivered = deliveredChanges(t, ledger);
  const changes: MoodChange[] = [
    {
      kind: 'chat',
      correlationId: 'c1',
      sentiment: { sentiment: 'positive', positive: 0.43, negative: 0 },
      at: '2026-11-23T09:00:01.000Z',
    },
    { kind: 'drift', deltas: { joy: 0.04, sadness: -0.01, anger: 0.02, fear: 0, curiosity: -0.03 }, at: '2026-11-23T09:00:10.000Z' },
    { kind: 'chat', correlationId: 'c2', sentiment: { sentiment: 'negative', positive: 0, negative: 0.6 }, at: '2026-11-23T09:00:12.000Z' },
  ];
  for (const change of changes) await ledger.append(change);
  await eventually('three changes', () => (delivered.length === 3 ? true : undefined));
  const expected = serializeState(changes.reduce(foldMoodChange, seed));

  const { stdout, error } = await runCommand(['replay', '--redis', server.url, '--prefix', 'replay-test:'], { root });
  t.equal(error, undefined);
  t.equal(stdout, expected, 'the same text a file replay prints');
  t.equal(stdout, serializeState(ledger.state));

  const empty = await runCommand(['replay', '--redis', server.url, '--prefix', 'nothing-here:'], { root });
  t.equal(empty.stdout, serializeState(REPLAY_START), 'no snapshot, no stream: the defaults, like an empty log');
});

t.test('hub replay --redis gets through an entry no replica applies, and says so on stderr', async (t) => {
  const server = await startRedisServer(t);
  const keys = redisKeys('refused:');
  await server.cli('SET', keys.moodSequence, '1');
  await server.cli(
    'XADD',
    keys.moodStream,
    '*',
    'seq',
    '1',
    'change',
    '{"kind":"chat","correlationId":"x","sentiment":{"sentiment":"positive","positive":1e308,"negative":0},"at":"2026-11-23T09:00:00.000Z"}',
  );
  const { stdout, stderr, error } = await runCommand(['replay', '--redis', server.url, '--prefix', 'refused:'], { root });
  t.equal(error, undefined, 'exit 0');
  t.equal(stdout, serializeState(REPLAY_START), 'the refused entry changed nothing');
  t.match(
    stderr,
    /^warning: mood stream entry 1 \(.*\) refused: its change is not one this version can apply \(\/sentiment\/positive must be <= 1\)/,
  );
});

t.test('hub replay needs exactly one of FILE and --redis', async (t) => {
  const neither = await runCommand(['replay'], { root });
  t.match(neither.error, { message: 'give an event log FILE or --redis URL (one of them)', oclif: { exit: 2 } });
  const both = await runCommand(['replay', join(fixtures, 'session.jsonl'), '--redis', 'redis://127.0.0.1:1/0'], { root });
  t.match(both.error, { oclif: { exit: 2 } });
});

t.test('an unreachable Redis is a clear error that hides the password', async (t) => {
  const { error } = await runCommand(['replay', '--redis', 'redis://:s3cret@127.0.0.1:1/0'], { root });
  t.match(error, {
    message: /^cannot replay redis:\/\/127\.0\.0\.1:1\/0: cannot connect to Redis at redis:\/\/127\.0\.0\.1:1\/0/,
    oclif: { exit: 1 },
  });
  t.notMatch(error?.message, /s3cret/);
});

t.test('hub replay keeps only the fields it knows: unknown keys of a line are not copied', async (t) => {
  const planted = JSON.parse(loaded) as Record<string, any>;
  planted.extra = 'top';
  planted.emotions.greed = 0.9;
  planted.sentiment.note = '<script>';
  const committed = {
    type: 'chat.committed',
    at: '2026-11-21T10:00:01.000Z',
    correlationId: 'c1',
    sentiment: { sentiment: 'positive', positive: 0.5, negative: 0, hidden: 'x' },
    emotions: { joy: 0.6, sadness: 0.1, anger: 0.1, fear: 0.1, curiosity: 0.5 },
  };
  const dir = testDir(t, { 'extra.jsonl': `${JSON.stringify(planted)}\n` });
  const { stdout, error } = await runCommand(['replay', join(dir, 'extra.jsonl')], { root });
  t.equal(error, undefined);
  const printed = JSON.parse(stdout);
  t.same(Object.keys(printed), ['version', 'emotions', 'avatar']);
  t.same(Object.keys(printed.emotions), ['joy', 'sadness', 'anger', 'fear', 'curiosity'], 'no unknown emotion');
  t.same(Object.keys(printed.avatar.sentiment), ['sentiment', 'positive', 'negative'], 'no unknown sentiment field');
  t.notMatch(stdout, /greed|script|extra/);
  // A chat's sentiment becomes the state's: its unknown keys are not printed either.
  const withChat = testDir(t, { 'chat.jsonl': `${loaded}\n${JSON.stringify(committed)}\n` });
  const chat = await runCommand(['replay', join(withChat, 'chat.jsonl')], { root });
  t.equal(chat.error, undefined);
  t.same(Object.keys(JSON.parse(chat.stdout).avatar.sentiment), ['sentiment', 'positive', 'negative']);
});

t.test('hub replay reads a log that starts with a UTF-8 byte order mark', async (t) => {
  const plain = readFileSync(join(fixtures, 'session.jsonl'));
  const dir = testDir(t, { 'bom.jsonl': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), plain]) });
  const { stdout, error } = await runCommand(['replay', join(dir, 'bom.jsonl')], { root });
  t.equal(error, undefined, 'not taken for malformed JSON');
  t.equal(stdout, readFileSync(join(fixtures, 'session.emotions.json'), 'utf8'));
});

/** The best of five times to read a log whose second line is one event padded to `bytes`. */
async function longLineMs(dir: string, bytes: number): Promise<number> {
  const padded = { ...(JSON.parse(loaded) as object), type: 'system.component.ready', component: 'memoryStore', detail: 'p'.repeat(bytes) };
  const file = join(dir, `long-${bytes}.jsonl`);
  writeFileSync(file, `${loaded}\n${JSON.stringify(padded)}\n`);
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 5; run += 1) {
    const started = performance.now();
    let count = 0;
    for await (const _event of readEventLog(file)) count += 1;
    if (count !== 2) throw new Error(`read ${count} events`);
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

t.test('one long line is read in linear time: 4 times the bytes do not take 30 times as long', async (t) => {
  const dir = testDir(t);
  const small = await longLineMs(dir, 4_000_000);
  const large = await longLineMs(dir, 16_000_000);
  // Linear reading gives about 4 (up to 13 on a busy machine); the former glue-and-split gave 85.
  t.ok(large / Math.max(small, 1) < 30, `4 MB: ${small.toFixed(0)} ms, 16 MB: ${large.toFixed(0)} ms`);
});

t.test('hub replay --redis with text piped on stdin does not read stdin as the FILE', async (t) => {
  requireBuilt();
  const child = spawn(...untraced(process.execPath, ['bin/run.js', 'replay', '--redis', 'redis://127.0.0.1:1/0']), {
    cwd: root,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end('some text a shell piped in\n');
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  t.equal(code, 1, 'the Redis error (exit 1), not a usage error (exit 2)');
  t.match(stderr, /cannot replay redis:\/\/127\.0\.0\.1:1\/0: cannot connect to Redis/);
  t.notMatch(stderr, /one of them/);
});
