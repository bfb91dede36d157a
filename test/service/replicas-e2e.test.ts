import { join } from 'node:path';
import t, { type Test } from 'tap';
import { defaultState, foldMoodChange, type EmotionState } from '../../src/emotions/state.js';
import { roundEmotions } from '../../src/emotions/model.js';
import { analyzeSentiment } from '../../src/emotions/sentiment.js';
import { appraise } from '../../src/appraisal/appraisal.js';
import { loadShippedModel } from '../../src/appraisal/shipped-model.js';
import type { MoodChange } from '../../src/mood-ledger/mood-ledger.js';
import { redisKeys } from '../../src/redis/keys.js';
import { decodeMoodEntry, STREAM_START, type StreamPosition } from '../../src/redis/mood-entry.js';
import { runBuiltCli } from '../support/built-cli.js';
import { CookieJar } from '../support/cookie-jar.js';
import { eventually } from '../../testkit/eventually.js';
import { redisClient, startRedisServer, type RedisServer } from '../support/redis-server.js';
import { serve, settledOver, type Run } from '../support/served-cli.js';
import { echoing, listeningProvider, type ListeningProvider } from '../../testkit/provider-stand-in.js';
import { testDir } from '../support/test-dir.js';

// Three `hub serve` processes on one real redis-server, answered by an OpenAI-compatible stand-in
// that echoes each message and records every prompt. npm test builds bin/ first.

const MESSAGE = 'I love this wonderful day';
const NO_DRIFT = { DRIFT_INTERVAL_MS: '86400000' };

interface Replica {
  readonly run: Run;
  readonly address: string;
}

async function echoProvider(t: Test): Promise<ListeningProvider> {
  return listeningProvider(t, echoing());
}

async function startReplicas(
  t: Test,
  redis: RedisServer,
  provider: ListeningProvider,
  env: Record<string, string>,
  count = 3,
): Promise<Replica[]> {
  const dir = testDir(t);
  const runs = Array.from({ length: count }, (_, n) =>
    serve(t, {
      REDIS_URL: redis.url,
      LLM_API_KEY: 'sk-test-replicas',
      LLM_BASE_URL: provider.baseURL,
      EMOTIONS_FILE: join(dir, `replica-${n}.json`),
      DEBUG: '0',
      ...env,
    }),
  );
  return Promise.all(
    runs.map(async (run) => {
      const address = await run.listening;
      t.match(await settledOver(address, 20_000), { is_initialized: true });
      return { run, address };
    }),
  );
}

async function avatar(replica: Replica): Promise<{ status: number; body: any }> {
  const response = await fetch(`${replica.address}/api/avatar`);
  return { status: response.status, body: await response.json() };
}

async function chat(address: string, message = MESSAGE): Promise<{ status: number; body: any }> {
  const response = await fetch(`${address}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message }),
  });
  return { status: response.status, body: await response.json() };
}

/** `count` chats, spread round robin over the replicas, `perReplica` at a time on each. */
async function load(replicas: Replica[], count: number, perReplica: number): Promise<number[]> {
  const statuses: number[] = [];
  let next = 0;
  const worker = async (replica: Replica): Promise<void> => {
    while (next < count) {
      next++;
      statuses.push((await chat(replica.address)).status);
    }
  };
  await Promise.all(replicas.flatMap((replica) => Array.from({ length: perReplica }, () => worker(replica))));
  return statuses;
}

/** What `hub replay --redis` prints, parsed. */
async function replay(redis: RedisServer): Promise<{ emotions: EmotionState['emotions']; avatar: { shape: string } }> {
  const { code, stdout, stderr } = await runBuiltCli(['replay', '--redis', redis.url], {});
  if (code !== 0) throw new Error(`hub replay --redis failed: ${stderr}`);
  return JSON.parse(stdout);
}

/** Every stream entry's change (the service writes none that a replica refuses). */
async function streamEntries(t: Test, redis: RedisServer): Promise<{ position: StreamPosition; change: MoodChange }[]> {
  const client = await redisClient(t, redis.url);
  const raw = (await client.xrange(redisKeys().moodStream, '-', '+')) as [string, string[]][];
  return raw.map((entry) => {
    const decoded = decodeMoodEntry(entry, STREAM_START);
    if ('refused' in decoded) throw new Error(`the service wrote an entry it refuses: ${decoded.refused}`);
    return decoded;
  });
}

t.test('three replicas share one mood, one ordered stream and the visitors’ conversations, and survive Redis going away', async (t) => {
  const redis = await startRedisServer(t);
  const provider = await echoProvider(t);
  const replicas = await startReplicas(t, redis, provider, NO_DRIFT);

  // A few hundred chats from keep-alive clients, spread over the three.
  const statuses = await load(replicas, 300, 4);
  t.same(
    statuses.filter((status) => status !== 200),
    [],
    'all 300 chats answered 200',
  );

  // Every chat carried the same sentiment: 300 processed messages from the defaults, whatever their order.
  const { sentiment } = analyzeSentiment(MESSAGE);
  const appraisal = appraise(await loadShippedModel(), MESSAGE);
  const expected = Array.from(
    { length: 300 },
    (): MoodChange => ({ kind: 'chat', correlationId: '', sentiment, appraisal, at: '' }),
  ).reduce(foldMoodChange, defaultState(''));
  const replayed = await replay(redis);
  t.same(replayed.emotions, expected.emotions, 'hub replay --redis gives the expected arithmetic, unrounded');
  t.equal(replayed.avatar.shape, expected.avatarShape);
  for (const [n, replica] of replicas.entries()) {
    const { body } = await eventually(`replica ${n} to have applied all 300`, async () => {
      const answer = await avatar(replica);
      return JSON.stringify(answer.body.emotions) === JSON.stringify(roundEmotions(expected.emotions)) ? answer : undefined;
    });
    t.equal(body.avatar_shape, expected.avatarShape, `replica ${n} shows the same shape`);
  }

  // One visitor whose requests land on each replica in turn keeps one conversation.
  const visitor = new CookieJar(replicas[0]!.address);
  const said = ['my name is Ada', 'I play chess', 'what do you know about me?'];
  for (const [n, message] of said.entries()) {
    visitor.address = replicas[n]!.address;
    t.equal((await visitor.chat(message)).status, 200);
  }
  const lastPrompt = provider.prompts.findLast((prompt) => prompt.messages.at(-1)?.content === said[2]);
  t.same(
    lastPrompt?.messages.slice(1).map((turn) => `${turn.role}: ${turn.content}`),
    [
      'user: my name is Ada',
      'assistant: You said: my name is Ada',
      'user: I play chess',
      'assistant: You said: I play chess',
      'user: what do you know about me?',
    ],
    'the third replica sent the exchanges the first two had',
  );

  // Redis goes away for a while under load: chats get 503, reads the last state; then it comes back.
  const during: { status: number; body: any }[] = [];
  let stopLoad = false;
  const background = (async () => {
    for (let n = 0; !stopLoad && n < 5000; n++) {
      const answer = await chat(replicas[n % 3]!.address);
      during.push(answer);
      // Refusals come back at once: pace them, so the bounded loop outlasts the outage.
      if (answer.status !== 200) await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  await eventually('some chats before the outage', () => (during.length >= 10 ? true : undefined));
  const before = await avatar(replicas[1]!);
  await redis.stop();
  const outageFrom = during.length;
  await eventually('503s while Redis is away', () => (during.slice(outageFrom).some((answer) => answer.status === 503) ? true : undefined));
  const reads = await Promise.all(replicas.map(avatar));
  t.same(
    reads.map((read) => read.status),
    [200, 200, 200],
    'reads answer from the last state',
  );
  t.equal(reads[1]!.body.is_initialized, true);
  t.ok(before.body.emotions, 'a state was there to read');
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await redis.start();
  const backFrom = during.length;
  await eventually('chats to succeed again on every replica', () =>
    during.slice(backFrom).filter((answer) => answer.status === 200).length >= 6 ? true : undefined,
  );
  stopLoad = true;
  await background;

  const refused = during.filter((answer) => answer.status === 503);
  t.ok(refused.length > 0, `${refused.length} chats were refused during the outage`);
  t.match(refused[0]!.body, { error: 'Chat is unavailable right now: this message changed nothing.' }, 'with a JSON error');
  t.same([...new Set(during.map((answer) => answer.status))].sort(), [200, 503], 'nothing but 200 and 503');

  // Everything committed is there, once: entries numbered 1..N without a gap, each chat once.
  const entries = await streamEntries(t, redis);
  t.same(
    entries.map((entry) => entry.position.seq),
    entries.map((_, n) => n + 1),
    'no entry lost or numbered twice',
  );
  const ids = entries.map((entry) => (entry.change.kind === 'chat' ? entry.change.correlationId : ''));
  t.equal(new Set(ids).size, ids.length, 'no chat appended twice');
  const succeeded = 300 + said.length + during.filter((answer) => answer.status === 200).length;
  t.ok(entries.length >= succeeded, `every answered chat is in the stream (${entries.length} entries, ${succeeded} answered)`);

  const final = await replay(redis);
  for (const [n, replica] of replicas.entries()) {
    await eventually(`replica ${n} to equal the replay`, async () => {
      const { body } = await avatar(replica);
      return JSON.stringify(body.emotions) === JSON.stringify(roundEmotions(final.emotions)) ? true : undefined;
    });
  }
  t.pass('every replica reports the replay of the stream');
  for (const replica of replicas) {
    t.equal(replica.run.signal(), null, 'still running: no crash');
    t.notMatch(replica.run.stderr(), /Unhandled|unhandled/, 'no unhandled rejection');
  }
});

t.test('Redis restarted empty: no replica exits, each says what happened, the last state comes back and they agree', async (t) => {
  const redis = await startRedisServer(t);
  const provider = await echoProvider(t);
  const replicas = await startReplicas(t, redis, provider, NO_DRIFT);
  let exits = 0;
  for (const replica of replicas) void replica.run.exited.then(() => (exits += 1));
  for (const replica of replicas) t.equal((await chat(replica.address)).status, 200);
  const before = (
    await eventually('the three chats in the shared state', async () => {
      const state = await replay(redis);
      return JSON.stringify(roundEmotions(state.emotions)) === JSON.stringify((await avatar(replicas[2]!)).body.emotions)
        ? state
        : undefined;
    })
  ).emotions;

  await redis.restartEmpty();
  // Served all along: reads from the state each holds, chats 200 again once the mood is written back.
  await eventually(
    'a chat answered again',
    async () => ((await chat(replicas[1]!.address, 'how are you?')).status === 200 ? true : undefined),
    { timeoutMs: 20_000 },
  );
  const { sentiment } = analyzeSentiment('how are you?');
  const appraisal = appraise(await loadShippedModel(), 'how are you?');
  const expected = roundEmotions(
    foldMoodChange({ ...defaultState(''), emotions: before }, { kind: 'chat', correlationId: '', sentiment, appraisal, at: '' }).emotions,
  );
  for (const [n, replica] of replicas.entries()) {
    await eventually(`replica ${n} to agree`, async () => {
      const { status, body } = await avatar(replica);
      return status === 200 && JSON.stringify(body.emotions) === JSON.stringify(expected) ? true : undefined;
    });
  }
  t.equal(exits, 0, 'no replica exited');
  const said = replicas.flatMap((replica) => replica.run.lines).filter((line) => /^Redis lost the shared mood/.test(String(line.msg)));
  t.ok(said.length >= 1, 'the loss is logged as what it is');
  t.notMatch(
    replicas.flatMap((replica) => replica.run.lines.map((line) => line.msg)),
    /trimmed/,
  );
});

t.test('SIGKILL the drifting replica: another drifts within the lease time', async (t) => {
  const redis = await startRedisServer(t);
  const provider = await echoProvider(t);
  const LEASE_MS = 600;
  const replicas = await startReplicas(t, redis, provider, { DRIFT_INTERVAL_MS: '100', DRIFT_LEASE_MS: String(LEASE_MS) });
  // During a slow start the lease may move between replicas: what counts is who holds it now (its
  // last lease line), and that after the kill a live replica drifts within the lease time.
  const HOLDS = 'this replica holds the drift lease: it drifts the shared mood';
  const LOST = 'this replica lost the drift lease: another one drifts';
  const holdsNow = (replica: Replica): boolean =>
    replica.run.lines.findLast((line) => line.msg === HOLDS || line.msg === LOST)?.msg === HOLDS;
  const driftTimes = async (): Promise<number[]> =>
    (await streamEntries(t, redis)).flatMap((entry) => (entry.change.kind === 'drift' ? [Date.parse(entry.change.at)] : []));
  await eventually('drift entries in the stream', async () => ((await driftTimes()).length >= 3 ? true : undefined));
  const holder = await eventually('a replica that holds the drift lease now', () => replicas.find(holdsNow));

  holder.run.kill('SIGKILL');
  const killed = Date.now();
  // The replicas stamp their entries with this machine's clock: entries stamped after the kill come
  // from live replicas (one the killed process had in flight is stamped before it).
  const after = await eventually(
    'three drift entries stamped after the kill',
    async () => {
      const later = (await driftTimes()).filter((time) => time > killed);
      return later.length >= 3 ? later : undefined;
    },
    { timeoutMs: 30_000 },
  );
  const tookOver = after[0]! - killed;
  // At most the lease time and a drift interval in theory; the margin is for a loaded machine.
  t.ok(tookOver < 2 * LEASE_MS + 1500, `a live replica drifted ${tookOver} ms after the kill (lease ${LEASE_MS} ms)`);
  const successor = await eventually('a live replica to hold the lease', () =>
    replicas.find((replica) => replica !== holder && holdsNow(replica)),
  );
  t.ok(successor.run.signal() === null, 'the successor is running');

  // Drift entries reach every surviving replica alike.
  const survivors = replicas.filter((replica) => replica !== holder);
  await eventually('the survivors to agree', async () => {
    const [a, b] = await Promise.all(survivors.map(avatar));
    return JSON.stringify(a!.body.emotions) === JSON.stringify(b!.body.emotions) ? true : undefined;
  });
  t.pass('the survivors report the same emotions');

  // One drifter at a time: a 100 ms timer never fires early, so drift entries from one replica
  // are at least ~100 ms apart; two drifting at once would interleave closer entries.
  const times = await driftTimes();
  const gaps = times.slice(1).map((time, n) => time - times[n]!);
  t.ok(times.length >= 6, `${times.length} drift entries`);
  t.ok(Math.min(...gaps) >= 90, `never two drifts in the same period (closest ${Math.min(...gaps)} ms apart)`);
});

t.test('Redis unreachable at startup: one line naming the URL without its password, exit status 1', async (t) => {
  const run = serve(t, { REDIS_URL: 'redis://:s3cret-pass@127.0.0.1:1/0', LLM_API_KEY: 'sk-test-replicas' });
  t.equal(await run.exited, 1);
  // oclif wraps its error line at the terminal width: read it as one.
  const message = run
    .stderr()
    .replace(/\s*›\s*/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  t.match(
    message,
    /^Error: REDIS_URL: cannot connect to Redis at redis:\/\/127\.0\.0\.1:1\/0: connect ECONNREFUSED 127\.0\.0\.1:1$/,
    'one message',
  );
  t.notMatch(run.stderr() + JSON.stringify(run.lines), /s3cret/, 'the password is nowhere');
});

t.test('a replica killed after its chat: the others and a successor hold the mood it committed, and the exchange', async (t) => {
  const redis = await startRedisServer(t);
  const provider = await echoProvider(t);
  const [producer, other] = await startReplicas(t, redis, provider, NO_DRIFT, 2);
  const visitor = new CookieJar(producer!.address);
  const answered = await visitor.chat('I am furious, they charged me twice');
  t.equal(answered.status, 200, 'the chat is answered by the replica about to die');
  const committed = roundEmotions(answered.body.emotions);
  t.not(
    JSON.stringify(committed),
    JSON.stringify(roundEmotions(defaultState(new Date(0).toISOString()).emotions)),
    'the chat moved the mood',
  );

  producer!.run.kill('SIGKILL');
  await producer!.run.exited;
  const moodOf = async (replica: Replica) => roundEmotions((await avatar(replica)).body.emotions);
  // The other replica hears the stream a moment later; a replica that starts reads it before it is ready.
  await eventually('the other replica to hold the committed mood', async () =>
    JSON.stringify(await moodOf(other!)) === JSON.stringify(committed) ? true : undefined,
  );
  t.pass('the other replica holds the mood the killed one committed');
  const [successor] = await startReplicas(t, redis, provider, NO_DRIFT, 1);
  t.same(await moodOf(successor!), committed, 'so does a replica started after it');
  visitor.address = successor!.address;
  const history = (await (await visitor.fetch('/api/history')).json()) as { messages: { role: string; content: string }[] };
  t.same(
    history.messages.map((message) => message.role),
    ['user', 'assistant'],
    'the visitor finds the exchange on the successor',
  );
  t.equal(history.messages[0]?.content, 'I am furious, they charged me twice');
});
