import { join } from 'node:path';
import t from 'tap';
import { CookieJar } from '../support/cookie-jar.js';
import { eventually } from '../../testkit/eventually.js';
import { startRedisServer } from '../support/redis-server.js';
import { serve, settledOver } from '../support/served-cli.js';
import { SseReader } from '../support/sse-client.js';
import { echoing, listeningProvider } from '../../testkit/provider-stand-in.js';
import { streamedChat } from '../support/streaming.js';
import { testDir } from '../support/test-dir.js';

// `hub serve` as users run it (npm test builds bin/ first): streamed replies and the pushed mood,
// across two replicas on a real redis-server, and their end at shutdown.

const NO_DRIFT = { DRIFT_INTERVAL_MS: '86400000', DEBUG: '0' };

t.test('two replicas: a streamed chat on one is pushed to the listeners of both; shutdown ends the streams and the process', async (t) => {
  const redis = await startRedisServer(t);
  const provider = await listeningProvider(t, echoing());
  const dir = testDir(t);
  const runs = [0, 1].map((n) =>
    serve(t, {
      REDIS_URL: redis.url,
      LLM_API_KEY: 'sk-test-live',
      LLM_BASE_URL: provider.baseURL,
      EMOTIONS_FILE: join(dir, `replica-${n}.json`),
      ...NO_DRIFT,
    }),
  );
  const [a, b] = await Promise.all(runs.map((run) => run.listening));
  for (const address of [a!, b!]) t.match(await settledOver(address, 20_000), { is_initialized: true });

  const listeners = await Promise.all([a!, b!].map(async (address) => new SseReader((await fetch(`${address}/api/events`)).body!)));
  await eventually('the first frames', () => listeners.every((listener) => listener.frames.length === 1));

  const visitor = new CookieJar(a!);
  const reply = new SseReader((await streamedChat(visitor, 'I love this wonderful day')).body!);
  await reply.done;
  t.same(
    reply.data('token').map(({ text }) => text),
    ['You ', 'said: ', 'I ', 'love ', 'this ', 'wonderful ', 'day'],
    'the reply streams piece by piece',
  );
  const [done] = reply.data('done');
  t.equal(done.response, 'You said: I love this wonderful day');

  await eventually('the change on both replicas', () => listeners.every((listener) => listener.frames.length === 2));
  const pushed = listeners.map((listener) => JSON.parse(listener.frames[1]!.data));
  t.same(pushed[0].emotions, done.emotions, 'the replica that chatted pushes the committed mood');
  t.same(pushed[1], pushed[0], 'the other replica pushes the same change to its listeners');
  t.same(pushed[1], await (await fetch(`${b}/api/avatar`)).json(), 'the frame is the /api/avatar body');

  const history = await (
    await new CookieJar(b!).fetch('/api/history', { headers: { cookie: `emotion_hub_session=${visitor.value}` } })
  ).json();
  t.equal(history.messages.length, 2, "the visitor's history is on the other replica too");

  const stopping = Date.now();
  runs[1]!.kill('SIGTERM');
  t.equal(await runs[1]!.exited, 0);
  await listeners[1]!.done;
  t.ok(Date.now() - stopping < 5000, `the replica with a listener exits within 5 s (${Date.now() - stopping} ms)`);
  t.ok(listeners[1]!.ended, 'its event stream ended');
  runs[0]!.kill('SIGTERM');
  await runs[0]!.exited;
});
