import t from 'tap';
import { sessionKey } from '../../src/http/session.js';
import { redisKeys } from '../../src/redis/keys.js';
import { RedisConversationStore } from '../../src/redis/redis-conversation-store.js';
import { eventually } from '../../testkit/eventually.js';
import { redisClient, startRedisServer } from '../support/redis-server.js';
import { capturedLogger } from '../support/captured-logger.js';

const COOKIE_ID = 'Qm9vbS1zZXNzaW9uLWlkLTAwMQ';
// What the store is given: the session key the HTTP layer derived from the cookie's id.
const SESSION = sessionKey(COOKIE_ID);

t.test('a conversation is shared by every replica, bounded to the last 10 exchanges', async (t) => {
  const server = await startRedisServer(t);
  const keys = redisKeys('conv:');
  const onA = new RedisConversationStore({ client: await redisClient(t, server.url), keys, idleMs: 60_000 });
  const onB = new RedisConversationStore({ client: await redisClient(t, server.url), keys, idleMs: 60_000 });
  t.same(await onA.history(SESSION), [], 'an unknown session has no history');
  for (let n = 1; n <= 12; n++) await (n % 2 ? onA : onB).remember(SESSION, `message ${n}`, `reply ${n}`);
  const history = await onB.history(SESSION);
  t.equal(history.length, 20, 'ten exchanges');
  t.same(history.slice(0, 2), [
    { role: 'user', content: 'message 3' },
    { role: 'assistant', content: 'reply 3' },
  ]);
  t.same(history.at(-1), { role: 'assistant', content: 'reply 12' });
  t.same(await onA.history(SESSION), history, 'the same on the other replica');
  t.same(await onA.history('another-session'), [], 'sessions are apart');
  const stored = await server.cli('KEYS', 'conv:*');
  t.notMatch(stored, COOKIE_ID, 'the session id, a credential, is not a key name');
  t.equal(stored, `conv:conversation:${SESSION}`, 'the session key names it, not hashed again');
  await onA.close();
});

t.test('messages carry their times across replicas; forget drops the conversation everywhere', async (t) => {
  const server = await startRedisServer(t);
  const keys = redisKeys('timed:');
  const onA = new RedisConversationStore({ client: await redisClient(t, server.url), keys, idleMs: 60_000 });
  const onB = new RedisConversationStore({ client: await redisClient(t, server.url), keys, idleMs: 60_000 });
  await onA.remember(SESSION, 'hello', 'hi', { message: '2026-11-21T10:00:00.000Z', reply: '2026-11-21T10:00:01.000Z' });
  // A turn stored by an older version has no time.
  await server.cli('RPUSH', keys.conversation(SESSION), JSON.stringify({ role: 'user', content: 'old' }));
  t.same(await onB.messages(SESSION), [
    { role: 'user', content: 'hello', at: '2026-11-21T10:00:00.000Z' },
    { role: 'assistant', content: 'hi', at: '2026-11-21T10:00:01.000Z' },
    { role: 'user', content: 'old', at: '1970-01-01T00:00:00.000Z' },
  ]);
  t.same((await onB.history(SESSION))[1], { role: 'assistant', content: 'hi' }, 'the model gets no times');
  await onB.forget(SESSION);
  t.same(await onA.messages(SESSION), []);
  t.equal(await server.cli('EXISTS', keys.conversation(SESSION)), '0');
});

t.test('an idle conversation expires; reading or writing renews it', async (t) => {
  const server = await startRedisServer(t);
  const keys = redisKeys('idle:');
  const store = new RedisConversationStore({ client: await redisClient(t, server.url), keys, idleMs: 5000 });
  await store.remember(SESSION, 'hello', 'hi');
  const ttl = Number(await server.cli('PTTL', keys.conversation(SESSION)));
  t.ok(ttl > 0 && ttl <= 5000, `expires within SESSION_IDLE_MS (${ttl} ms left)`);
  // Cut to 2 s (room for a slow redis-cli on a loaded machine); a read puts it back to 5 s.
  await server.cli('PEXPIRE', keys.conversation(SESSION), '2000');
  await store.history(SESSION);
  t.ok(Number(await server.cli('PTTL', keys.conversation(SESSION))) > 3000, 'a read renews it');
  await server.cli('PEXPIRE', keys.conversation(SESSION), '1');
  await new Promise((resolve) => setTimeout(resolve, 20));
  t.same(await store.history(SESSION), [], 'once expired, forgotten');
});

t.test('turns this version cannot read are left out', async (t) => {
  const server = await startRedisServer(t);
  const keys = redisKeys('odd:');
  const store = new RedisConversationStore({ client: await redisClient(t, server.url), keys, idleMs: 5000 });
  await server.cli('RPUSH', keys.conversation(SESSION), 'not json', '{"role":"system","content":"x"}', '{"role":"user","content":"ok"}');
  t.same(await store.history(SESSION), [{ role: 'user', content: 'ok' }]);
});

t.test('Redis away: reads and writes reject with a clear error, and work again once it is back', async (t) => {
  const server = await startRedisServer(t);
  const keys = redisKeys('down:');
  const store = new RedisConversationStore({ client: await redisClient(t, server.url), keys, idleMs: 60_000 });
  await store.remember(SESSION, 'before', 'kept');
  await server.stop();
  await t.rejects(store.history(SESSION), {
    name: 'RedisUnavailableError',
    message: /^Redis is unavailable: cannot read the conversation/,
  });
  await t.rejects(store.remember(SESSION, 'a', 'b'), { name: 'RedisUnavailableError', message: /cannot remember the conversation/ });
  await server.start();
  const history = await eventually('the client to reconnect by itself', () => store.history(SESSION).catch(() => undefined));
  t.same(history, [
    { role: 'user', content: 'before' },
    { role: 'assistant', content: 'kept' },
  ]);
});

t.test('a conversation key of another type is reported and replaced, never a refusal for good', async (t) => {
  const server = await startRedisServer(t);
  const keys = redisKeys('typed:');
  const log = capturedLogger();
  const store = new RedisConversationStore({ client: await redisClient(t, server.url), keys, idleMs: 60_000, logger: log.logger });
  const other = sessionKey('T3RoZXItc2Vzc2lvbi1pZC0wMDI');
  await server.cli('SET', keys.conversation(SESSION), 'a string, not a list');
  await server.cli('HSET', keys.conversation(other), 'field', 'value');
  t.same(await store.history(SESSION), [], 'read: the conversation starts again');
  await store.remember(other, 'hello', 'hi');
  t.same(
    await store.history(other),
    [
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: 'hi' },
    ],
    'written: kept from then on',
  );
  await store.remember(SESSION, 'and now', 'fine');
  t.same(await store.history(SESSION), [
    { role: 'user', content: 'and now' },
    { role: 'assistant', content: 'fine' },
  ]);
  const reports = log.lines().filter((line) => /not a list: removed/.test(String(line.msg)));
  t.same(
    reports.map((line) => line.type),
    ['string', 'hash'],
    'each reported once, with what it held',
  );
});

t.test('a stopped reply, a regenerate and an edit: marks and earlier versions kept on Redis, read on another replica', async (t) => {
  const server = await startRedisServer(t);
  const keys = redisKeys('redo:');
  const onA = new RedisConversationStore({ client: await redisClient(t, server.url), keys, idleMs: 60_000 });
  const onB = new RedisConversationStore({ client: await redisClient(t, server.url), keys, idleMs: 60_000 });
  const at = (second: number) => `2026-11-21T10:00:0${second}.000Z`;
  await onA.remember(SESSION, 'first', 'One', { message: at(0), reply: at(1) });
  await onA.remember(SESSION, 'tell me', 'Once up', { message: at(2), reply: at(3) }, { turn: 't1', stopped: true });
  t.match((await onB.messages(SESSION))[3], { content: 'Once up', stopped: true, turn: 't1' });
  await onB.remember(SESSION, 'tell me', 'Once upon a time.', { message: at(2), reply: at(4) }, { turn: 't2', replace: true });
  await onA.remember(SESSION, 'tell me more', 'More!', { message: at(5), reply: at(6) }, { replace: true });
  const messages = await onB.messages(SESSION);
  t.equal(messages.length, 4, 'replaced in place, the first exchange untouched');
  t.match(messages[0], { content: 'first' });
  t.same(messages[2], { role: 'user', content: 'tell me more', at: at(5), alternatives: [{ content: 'tell me', at: at(2) }] });
  t.same(messages[3], {
    role: 'assistant',
    content: 'More!',
    at: at(6),
    alternatives: [
      { content: 'Once up', at: at(3), stopped: true },
      { content: 'Once upon a time.', at: at(4) },
    ],
  });
  t.same((await onA.history(SESSION)).slice(2), [
    { role: 'user', content: 'tell me more' },
    { role: 'assistant', content: 'More!' },
  ]);
});
