import t from 'tap';
import { ALWAYS_HELD } from '../../src/mood-ledger/drift-lease.js';
import { redisKeys } from '../../src/redis/keys.js';
import { RedisDriftLease } from '../../src/redis/redis-drift-lease.js';
import { capturedLogger } from '../support/captured-logger.js';
import { eventually } from '../../testkit/eventually.js';
import { redisClient, startRedisServer } from '../support/redis-server.js';

const TTL_MS = 300;

t.test('the single process always drifts', async (t) => {
  t.equal(ALWAYS_HELD.held(), true);
  await ALWAYS_HELD.close();
  t.equal(ALWAYS_HELD.held(), true);
});

t.test('one replica holds the lease; when it dies another takes over within the lease time, never both at once', async (t) => {
  const server = await startRedisServer(t);
  const keys = redisKeys('lease:');
  const logs = [capturedLogger(), capturedLogger(), capturedLogger()];
  const clients = await Promise.all(logs.map(() => redisClient(t, server.url, { commandTimeoutMs: 100 })));
  const leases = clients.map((client, n) => new RedisDriftLease({ client, keys, logger: logs[n]!.logger, ttlMs: TTL_MS }));
  t.teardown(() => Promise.all(leases.map((lease) => lease.close())));
  const holder = await eventually('a holder', () => {
    const holding = leases.filter((lease) => lease.held());
    return holding.length === 1 ? leases.indexOf(holding[0]!) : undefined;
  });

  const deviations: boolean[][] = [];
  for (let sample = 0; sample < 60; sample++) {
    const held = leases.map((lease) => lease.held());
    if (held.some((h, n) => h !== (n === holder))) deviations.push(held);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  t.same(deviations, [], 'over several renewals the holder stays the one, alone');

  // The holder's process dies: its connection is gone and it renews no more.
  clients[holder]!.disconnect();
  const died = Date.now();
  let overlap = false;
  const next = await eventually('another holder', () => {
    const holding = leases.filter((lease) => lease.held());
    if (holding.length > 1) overlap = true;
    const other = holding.find((lease) => lease !== leases[holder]);
    return other && leases.indexOf(other);
  });
  const tookOver = Date.now() - died;
  t.not(next, holder);
  t.notOk(overlap, 'never two holders at once');
  t.notOk(leases[holder]!.held(), 'the dead holder counts itself out');
  // At most the lease time and a renewal period in theory; the margin is for a loaded machine.
  t.ok(tookOver <= TTL_MS + TTL_MS / 3 + 700, `taken over within the lease time (${tookOver} ms)`);
  t.match(
    logs[next]!.lines().map((line) => line.msg),
    ['this replica holds the drift lease: it drifts the shared mood'],
  );
});

t.test('closing the holder hands the lease over at once', async (t) => {
  const server = await startRedisServer(t);
  const keys = redisKeys('handover:');
  const first = new RedisDriftLease({ client: await redisClient(t, server.url), keys, logger: capturedLogger().logger, ttlMs: 60_000 });
  await eventually('the first to hold it', () => (first.held() ? true : undefined));
  const second = new RedisDriftLease({ client: await redisClient(t, server.url), keys, logger: capturedLogger().logger, ttlMs: 60_000 });
  t.teardown(() => second.close());
  await first.close();
  t.notOk(first.held());
  t.equal(await server.cli('EXISTS', keys.driftLease), '0', 'released, not left to expire');
  await second.close(); // a fresh lease that never held it closes quietly
  const third = new RedisDriftLease({ client: await redisClient(t, server.url), keys, logger: capturedLogger().logger, ttlMs: 60_000 });
  t.teardown(() => third.close());
  await eventually('a newcomer to take it well before the 60 s lease time', () => (third.held() ? true : undefined), { timeoutMs: 2000 });
});

t.test('a holder cut off from Redis counts itself out within the lease time, and takes the lease again once Redis answers', async (t) => {
  const server = await startRedisServer(t);
  const keys = redisKeys('frozen:');
  const log = capturedLogger();
  const lease = new RedisDriftLease({
    client: await redisClient(t, server.url, { commandTimeoutMs: 50 }),
    keys,
    logger: log.logger,
    ttlMs: TTL_MS,
  });
  t.teardown(() => lease.close());
  await eventually('the lease', () => (lease.held() ? true : undefined));
  server.freeze();
  const frozen = Date.now();
  await eventually('the holder to count itself out', () => (lease.held() ? undefined : true), { timeoutMs: 2000 });
  const pttl = Date.now() - frozen;
  server.thaw();
  // It counts itself out 9/10 of a lease after its last renewal was sent (Redis expires the key a
  // full lease after receiving it); the margin is for a loaded machine's timers.
  t.ok(pttl < TTL_MS + 200, `it stopped within the lease time (${pttl} ms)`);
  await eventually('the lease back once Redis answers', () => (lease.held() ? true : undefined), { timeoutMs: 3000 });
});

t.test('a holder whose lease another took counts itself out at its next renewal, and says so', async (t) => {
  const server = await startRedisServer(t);
  const keys = redisKeys('taken:');
  const log = capturedLogger();
  const lease = new RedisDriftLease({ client: await redisClient(t, server.url), keys, logger: log.logger, ttlMs: TTL_MS });
  t.teardown(() => lease.close());
  await eventually('the lease', () => (lease.held() ? true : undefined));
  await server.cli('SET', keys.driftLease, 'someone-else', 'PX', '60000');
  await eventually('the holder to notice', () => (lease.held() ? undefined : true), { timeoutMs: 2000 });
  t.match(log.lines().at(-1), { level: 40, msg: 'this replica lost the drift lease: another one drifts' });
  await lease.close();
  t.equal(await server.cli('GET', keys.driftLease), 'someone-else', 'closing does not release a lease it no longer holds');
});

t.test('a foreign lease with no expiry is given the lease time, said once, then taken over', async (t) => {
  const server = await startRedisServer(t);
  const keys = redisKeys('stuck:');
  const client = await redisClient(t, server.url);
  await client.set(keys.driftLease, 'a-tool-that-forgot-the-expiry');
  const log = capturedLogger();
  const lease = new RedisDriftLease({ client, keys, logger: log.logger, ttlMs: TTL_MS });
  t.teardown(() => lease.close());
  await eventually('the lease taken over', () => lease.held(), { timeoutMs: 5000 });
  const warnings = log.lines().filter((line) => /held with no expiry/.test(String(line.msg)));
  t.equal(warnings.length, 1, 'said once');
  t.match(warnings[0], { level: 40, key: keys.driftLease });
  t.ok(
    log.lines().some((line) => /holds the drift lease/.test(String(line.msg))),
    'and the takeover is logged',
  );
});
