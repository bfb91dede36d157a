import type { ServerResponse } from 'node:http';
import t from 'tap';
import { CookieJar } from '../support/cookie-jar.js';
import { eventually } from '../../testkit/eventually.js';
import { redisClient } from '../support/redis-server.js';
import { twoReplicas } from '../support/replica-pair.js';
import { SseReader } from '../support/sse-client.js';
import { COMPLETION_END, completionFrame } from '../../testkit/provider-wire.js';

// Two `hub serve` replicas on one real redis-server: a turn written by one is resumed from the
// other, and when its writer is killed, the survivor ends it with an error frame within 2 s.

/** A streamed chat on the visitor's replica, once its first piece is there. */
async function turnWithOnePiece(visitor: CookieJar, streams: ServerResponse[]) {
  const response = await visitor.fetch('/api/chat', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ message: 'tell me a long story' }),
  });
  const turn = response.headers.get('turn-id')!;
  const reader = new SseReader(response.body!);
  await eventually('the call at the provider', () => streams.length === 1);
  streams[0]!.write(completionFrame('Once '));
  await eventually('the first piece', () => reader.frames.length === 1);
  return { turn, reader };
}

t.test('a turn written by one replica is resumed from another, each missed frame once, then live to done', async (t) => {
  const { provider, addresses } = await twoReplicas(t);
  const visitor = new CookieJar(addresses[0]);
  const { turn, reader } = await turnWithOnePiece(visitor, provider.streams);
  provider.streams[0]!.write(completionFrame('upon '));
  await eventually('the second piece', () => reader.frames.length === 2);

  visitor.address = addresses[1];
  t.equal((await new CookieJar(addresses[1]).fetch(`/api/chat/turns/${turn}`)).status, 404, "another visitor's turn is not found");
  const elsewhere = new SseReader((await visitor.fetch(`/api/chat/turns/${turn}`, { headers: { 'last-event-id': '1' } })).body!);
  await eventually('the missed frame on the other replica', () => elsewhere.frames.length === 1);
  provider.streams[0]!.write(completionFrame('a time.'));
  provider.streams[0]!.end(COMPLETION_END);
  await elsewhere.done;
  await reader.done;
  t.same(
    elsewhere.frames.map((frame) => [frame.id, frame.event]),
    [
      ['2', 'token'],
      ['3', 'token'],
      ['4', 'done'],
    ],
  );
  t.same(reader.frames.slice(1), elsewhere.frames, 'the same frames, with the same ids, as the writer sent');
  t.match(elsewhere.data('done'), [{ response: 'Once upon a time.' }]);
});

t.test("a killed writer's turn is ended with an error frame by the survivor within 2 s, and nothing commits", async (t) => {
  const { redis, provider, runs, addresses } = await twoReplicas(t);
  const visitor = new CookieJar(addresses[0]);
  const { turn } = await turnWithOnePiece(visitor, provider.streams);
  visitor.address = addresses[1];
  const elsewhere = new SseReader((await visitor.fetch(`/api/chat/turns/${turn}`)).body!);
  // Twenty followers, as the issue measured: one resumed stream and nineteen more.
  const more = await Promise.all(
    Array.from({ length: 19 }, async () => new SseReader((await visitor.fetch(`/api/chat/turns/${turn}`)).body!)),
  );
  await eventually('the first frame on the other replica', () => [elsewhere, ...more].every((reader) => reader.frames.length === 1));

  runs[0]!.kill('SIGKILL');
  await runs[0]!.exited;
  const killedAt = Date.now();
  await eventually('the error frame', () => [elsewhere, ...more].every((reader) => reader.ended), { timeoutMs: 10_000 });
  const tookMs = Date.now() - killedAt;
  t.ok(tookMs < 2000, `every follower ended ${tookMs} ms after the death`);
  for (const reader of more) t.same(reader.frames, elsewhere.frames);
  t.same(
    elsewhere.frames.map((frame) => [frame.id, frame.event]),
    [
      ['1', 'token'],
      ['2', 'error'],
    ],
  );
  t.match(elsewhere.data('error'), [{ code: 'TURN_LOST', error: /stopped before it ended/ }]);
  const client = await redisClient(t, redis.url);
  t.equal(await client.xlen('emotion-hub:mood'), 0, 'no mood change was committed for it');
  const again = new SseReader((await visitor.fetch(`/api/chat/turns/${turn}`)).body!);
  await again.done;
  t.same(again.frames, elsewhere.frames, 'the ended turn reads the same from the start');
});
