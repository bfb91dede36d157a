import t from 'tap';
import { CookieJar } from '../support/cookie-jar.js';
import { eventually } from '../../testkit/eventually.js';
import { redisClient } from '../support/redis-server.js';
import { twoReplicas } from '../support/replica-pair.js';
import { SseReader } from '../support/sse-client.js';
import { COMPLETION_END, completionFrame } from '../../testkit/provider-wire.js';

// Two `hub serve` replicas on one real redis-server, no sticky sessions: one visitor's requests land
// on either. What a tab does on one replica reaches the visitor's tabs on the other (the feed), a stop
// sent to the other replica stops the reply where it is written, and nothing is left in Redis after.

const STREAM = { 'content-type': 'application/json', accept: 'text/event-stream' };

t.test("a visitor's tabs on two replicas are in step: turns, frames, stop, regenerate, edit, new conversation", async (t) => {
  const { redis, provider, addresses } = await twoReplicas(t);
  const [one, two] = addresses;
  const visitor = new CookieJar(one);
  await visitor.fetch('/api/history');
  const at = (address: string) => {
    visitor.address = address;
    return visitor;
  };

  const feed = new SseReader((await at(two).fetch('/api/chat/feed')).body!);
  await eventually('the feed on replica two', () => feed.frames.some((frame) => frame.event === 'mood'));
  t.same(feed.data('running'), [{ turns: [] }]);

  // A message sent on replica one: the tab on replica two sees the turn begin and its reply grow.
  const response = await at(one).fetch('/api/chat', {
    method: 'POST',
    headers: STREAM,
    body: JSON.stringify({ message: 'tell me a story' }),
  });
  const turn = response.headers.get('turn-id')!;
  const reader = new SseReader(response.body!);
  await eventually('the call at the provider', () => provider.streams.length === 1);
  provider.streams[0]!.write(completionFrame('Once '));
  await eventually('the first piece on replica two', () => feed.data('frame').length === 1);
  t.same(feed.data('turn'), [{ id: turn, message: 'tell me a story' }]);
  t.same(feed.data('frame'), [{ turn, id: 1, event: 'token', data: { text: 'Once ' } }]);

  // A tab opening on replica two now finds the turn running on replica one.
  const late = new SseReader((await at(two).fetch('/api/chat/feed')).body!);
  await eventually('the late tab', () => late.frames.length > 0);
  t.same(late.data('running'), [{ turns: [{ id: turn, message: 'tell me a story' }] }]);

  // A stop sent to replica two stops the reply replica one writes, within 500 ms.
  const stopAt = Date.now();
  const stop = await at(two).fetch('/api/chat/stop', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ turn }),
  });
  t.same(await stop.json(), { stopped: true });
  await eventually('the stopped reply', () => reader.ended, { timeoutMs: 10_000 });
  const stoppedMs = Date.now() - stopAt;
  t.ok(stoppedMs < 500, `stopped ${stoppedMs} ms after the stop was sent to the other replica`);
  t.match(reader.data('error'), [{ code: 'CHAT_STOPPED' }]);
  await eventually('the stop on replica two', () => feed.data('ended').length === 1);
  t.match(feed.data('frame').at(-1), { turn, event: 'error', data: { code: 'CHAT_STOPPED' } });
  t.same(feed.data('ended'), [{ id: turn }]);
  t.same(
    await (await at(two).fetch('/api/chat/stop', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json(),
    { stopped: false },
    'nothing left to stop anywhere',
  );

  // A regenerate and an edit on replica one: replica two's tab hears what each redoes, and its end.
  for (const [path, body, redo, n] of [
    ['/api/chat/regenerate', '{}', 'regenerate', 1],
    ['/api/chat/edit', JSON.stringify({ message: 'tell me a poem' }), 'edit', 2],
  ] as const) {
    const redone = new SseReader((await at(one).fetch(path, { method: 'POST', headers: STREAM, body })).body!);
    await eventually(`the ${redo} at the provider`, () => provider.streams.length === n + 1);
    provider.streams[n]!.write(completionFrame('Again.'));
    provider.streams[n]!.end(COMPLETION_END);
    await redone.done;
    await eventually(`the ${redo}'s end on replica two`, () => feed.data('ended').length === n + 1);
    t.match(feed.data('turn').at(-1), { redo });
  }
  t.match(feed.data('frame').at(-1), { event: 'done', data: { response: 'Again.' } });

  // A new conversation on replica one empties the tab on replica two.
  t.equal((await at(one).fetch('/api/history', { method: 'DELETE' })).status, 200);
  await eventually('the new conversation on replica two', () => feed.data('cleared').length === 1);

  // Every turn ended: nothing of them is left running, and their keys only wait for their expiry.
  const client = await redisClient(t, redis.url);
  t.equal(await client.hlen('emotion-hub:turns:running'), 0);
  t.same(await client.keys('emotion-hub:turns:visitor:*'), [], "no visitor's running turns left");
  for (const key of await client.keys('emotion-hub:turn:*')) {
    const ttl = await client.pttl(key);
    t.ok(ttl > 0 && ttl <= 60_000, `${key} expires within 60 s (${ttl} ms)`);
  }
});
