import t from 'tap';
import { redisKeys } from '../../src/redis/keys.js';
import { ABANDONED_TURN_MS, RedisTurnLog } from '../../src/redis/redis-turn-log.js';
import { RedisVisitorRelay } from '../../src/redis/redis-visitor-relay.js';
import type { SessionKey } from '../../src/bus/events.js';
import { DEFAULT_TURN_KEEP_MS } from '../../src/turns/turn-log.js';
import type { VisitorNews } from '../../src/turns/visitor-relay.js';
import { capturedLogger } from '../support/captured-logger.js';
import { eventually } from '../../testkit/eventually.js';
import { redisClient, startRedisServer } from '../support/redis-server.js';

// The turn log and the visitor relay of replicas, on a real redis-server, each replica a pair of
// objects on its own connections.

const session = 'session-a' as SessionKey;

t.test('turns on Redis: what is kept, for how long, and in how many round trips', async (t) => {
  const server = await startRedisServer(t);
  const client = await redisClient(t, server.url);
  const keys = redisKeys('turns:');
  const log = new RedisTurnLog({ client, keys, logger: capturedLogger().logger });
  t.teardown(() => log.close());

  const writer = log.open('turn-1', session, { message: 'hi' });
  const before = log.frameRoundTrips;
  for (let n = 0; n < 50; n++) writer.write('token', JSON.stringify({ text: `${n} ` }));
  await eventually('the frames on Redis', async () => (await client.xlen(keys.turnFrames('turn-1'))) === 50);
  t.equal(log.frameRoundTrips - before, 1, 'fifty frames written at once go in one round trip, not fifty');
  const running = await client.pttl(keys.turnFrames('turn-1'));
  t.ok(running > DEFAULT_TURN_KEEP_MS && running <= ABANDONED_TURN_MS, `a running turn is kept up to the abandoned bound (${running} ms)`);
  t.same(await log.running(session), [{ id: 'turn-1', message: 'hi' }]);

  writer.write('done', '{}');
  await eventually('the end on Redis', async () => (await client.hlen(keys.turnsRunning)) === 0);
  // Issue 42 #11: an ended turn's frames and owner go within 60 s, not after the hour of an abandoned one.
  for (const key of [keys.turnFrames('turn-1'), keys.turnOwner('turn-1')]) {
    const ttl = await client.pttl(key);
    t.ok(ttl > 0 && ttl <= DEFAULT_TURN_KEEP_MS, `${key} expires within 60 s of the end (${ttl} ms)`);
  }
  t.equal(await client.exists(keys.visitorTurns(session)), 0, "the visitor's running turns are gone with the last");
  t.same(await log.running(session), []);
});

t.test('keys left after all turns end and expire: 0', async (t) => {
  const server = await startRedisServer(t);
  const client = await redisClient(t, server.url);
  const keys = redisKeys('left:');
  const log = new RedisTurnLog({ client, keys, logger: capturedLogger().logger, keepMs: 200 });
  for (const turn of ['a', 'b', 'c']) {
    const writer = log.open(turn, session, { message: turn });
    writer.write('token', '{"text":"x"}');
    writer.write(turn === 'c' ? 'error' : 'done', '{}');
  }
  await log.close();
  await eventually('every key expired', async () => (await client.keys('left:*')).length === 0);
  t.pass('none left');
});

t.test("replicas list a visitor's turns on each other, tell each other the news, and a stop reaches the writer", async (t) => {
  const server = await startRedisServer(t);
  const keys = redisKeys('pair:');
  const replicas = await Promise.all(
    [0, 1].map(async () => {
      const client = await redisClient(t, server.url);
      const subscriber = await redisClient(t, server.url);
      const logger = capturedLogger().logger;
      const turns = new RedisTurnLog({ client, keys, logger });
      t.teardown(() => turns.close());
      const relay = new RedisVisitorRelay({
        client,
        subscriber,
        keys,
        logger,
        replica: turns.replica,
        runningOn: (s) => turns.runningOn(s),
      });
      const heard: { session: SessionKey; news?: VisitorNews; stop?: string }[] = [];
      relay.listen({
        news: (s, news) => heard.push({ session: s, news }),
        stop: (s, turn) => heard.push({ session: s, stop: turn ?? 'all' }),
      });
      return { turns, relay, heard };
    }),
  );
  const [one, two] = replicas as [(typeof replicas)[0], (typeof replicas)[0]];
  // Subscribed once a message of the other comes through.
  await eventually('both listening', async () => {
    one.relay.publish(session, { event: 'cleared', data: {} });
    two.relay.publish(session, { event: 'cleared', data: {} });
    return one.heard.length > 0 && two.heard.length > 0;
  });
  t.ok(
    [...one.heard, ...two.heard].every((message) => message.news?.event === 'cleared'),
    'each hears the other, never itself',
  );

  one.turns.open('turn-1', session, { message: 'hi', redo: 'edit' });
  await eventually('the turn listed on the other replica', async () => (await two.turns.running(session)).length === 1);
  t.same(await two.turns.running(session), [{ id: 'turn-1', message: 'hi', redo: 'edit' }]);
  t.same(await two.turns.running('session-b' as SessionKey), [], "another visitor's are not");

  two.heard.length = 0;
  t.equal(await one.relay.stop(session, 'turn-1'), 0, 'a turn written here is not asked of the others');
  t.equal(await two.relay.stop(session, 'turn-2'), 0, 'nor is a turn nobody writes');
  t.equal(await two.relay.stop(session, 'turn-1'), 1);
  t.equal(await two.relay.stop(session, undefined), 1);
  await eventually('the stops on the writing replica', () => one.heard.filter((message) => message.stop).length === 2);
  t.same(
    one.heard.filter((message) => message.stop),
    [
      { session, stop: 'turn-1' },
      { session, stop: 'all' },
    ],
  );
});
