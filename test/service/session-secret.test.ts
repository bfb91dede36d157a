import nock from 'nock';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { newSessionId, SESSION_COOKIE, signSessionId } from '../../src/http/session.js';
import { loadSessionSecret, SESSION_SECRET_FILE } from '../../src/conversations/session-secret.js';
import { completion, modelList } from '../support/chat-system-harness.js';
import { mockProviderOnly, PROVIDER, startRealService } from '../support/real-service.js';
import { startRedisServer } from '../support/redis-server.js';

mockProviderOnly(t);

/** The session cookie value a GET / hands out, or undefined when it hands out none. */
async function cookieFrom(address: string, sent?: string): Promise<string | undefined> {
  const response = await fetch(`${address}/`, { headers: sent === undefined ? {} : { cookie: `${SESSION_COOKIE}=${sent}` } });
  await response.text();
  return response.headers.getSetCookie()[0]?.split(';')[0]?.split('=')[1];
}

t.test('unset SESSION_SECRET: one is generated once, kept beside the emotions file with mode 0600', async (t) => {
  const dir = t.testdir();
  const emotionsFile = join(dir, 'emotions.json');
  const first = await loadSessionSecret({ configured: undefined, emotionsFile });
  t.match(first, { secret: /^[A-Za-z0-9_-]{43}$/, notKept: undefined }, '32 random bytes, kept');
  t.equal(statSync(join(dir, SESSION_SECRET_FILE)).mode & 0o777, 0o600);
  t.same(await loadSessionSecret({ configured: undefined, emotionsFile }), first, 'the next start reads it back');
  const both = await Promise.all([1, 2].map(() => loadSessionSecret({ configured: undefined, emotionsFile: join(dir, 'new', 'x.json') })));
  t.equal(both[0]!.secret, both[1]!.secret, 'two starts at once on a new folder keep one secret');
  const unwritable = await loadSessionSecret({ configured: undefined, emotionsFile: join(dir, SESSION_SECRET_FILE, 'x.json') });
  t.match(
    unwritable,
    { secret: /^[A-Za-z0-9_-]{43}$/, notKept: /cannot write/ },
    'a folder that cannot hold it: a secret for this process, and why',
  );
  t.same(
    await loadSessionSecret({ configured: 'from-the-environment', emotionsFile }),
    { secret: 'from-the-environment' },
    'SESSION_SECRET wins',
  );
});

t.test('an id issued before a restart is still accepted after it (same folder, same secret)', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'emotion-hub-session-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const env = { EMOTIONS_FILE: join(dir, 'emotions.json') };
  const before = await startRealService(t, env);
  const issued = await cookieFrom(before.service.address);
  t.ok(issued);
  await before.service.close();
  const after = await startRealService(t, env);
  t.equal(await cookieFrom(after.service.address, issued), undefined, 'no new cookie: the id is still valid');
  t.ok(
    await cookieFrom(
      after.service.address,
      issued!.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A')),
    ),
    'a tampered one is replaced',
  );
});

t.test('replicas on one Redis without SESSION_SECRET accept the ids the others issued', async (t) => {
  nock(PROVIDER).persist().get('/v1/models').reply(200, modelList()).post('/v1/chat/completions').reply(200, completion('Noted.'));
  const redis = await startRedisServer(t);
  const dir = mkdtempSync(join(tmpdir(), 'emotion-hub-session-replicas-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const replica = (name: string) =>
    startRealService(t, {
      LLM_API_KEY: 'sk-test-sessions',
      DRIFT_INTERVAL_MS: '86400000',
      EMOTIONS_FILE: join(dir, name, 'emotions.json'),
      EVENT_LOG: join(dir, `${name}.jsonl`),
      REDIS_URL: redis.url,
      REDIS_PREFIX: 'sessions:',
    });
  const [a, b] = [await replica('a'), await replica('b')];
  const fromA = await cookieFrom(a.service.address);
  const fromB = await cookieFrom(b.service.address);
  t.ok(fromA && fromB);
  t.equal(await cookieFrom(b.service.address, fromA), undefined, 'B accepts the id A issued');
  t.equal(await cookieFrom(a.service.address, fromB), undefined, 'A accepts the id B issued');
  const planted = 'AAAAAAAAAAAAAAAAAAAAAA';
  t.ok(await cookieFrom(b.service.address, planted), 'a planted id is replaced on every replica');
  t.ok(await cookieFrom(a.service.address, planted));
});

t.test('a blank or short kept secret is never a key: a new one replaces it, whole, and says why', async (t) => {
  const dir = t.testdir();
  const emotionsFile = join(dir, 'emotions.json');
  const file = join(dir, SESSION_SECRET_FILE);
  for (const [kept, why] of [
    ['', /held no secret \(blank\): replaced/],
    ['\n  \n', /held no secret \(blank\): replaced/],
    ['abc', /held a secret of 3 characters, under 32: replaced/],
    ['x'.repeat(31), /held a secret of 31 characters, under 32: replaced/],
  ] as const) {
    writeFileSync(file, kept);
    const loaded = await loadSessionSecret({ configured: undefined, emotionsFile });
    t.match(loaded, { secret: /^[A-Za-z0-9_-]{43}$/, replaced: why, notKept: undefined }, JSON.stringify(kept));
    t.equal(readFileSync(file, 'utf8'), `${loaded.secret}\n`, 'the new one is kept in its place');
    t.equal(statSync(file).mode & 0o777, 0o600);
  }
  writeFileSync(file, 'y'.repeat(32));
  t.same(await loadSessionSecret({ configured: undefined, emotionsFile }), { secret: 'y'.repeat(32) }, '32 characters are a key');
  t.same(
    readdirSync(dir).filter((name) => name.includes('tmp')),
    [],
    'no temporary file is left',
  );
});

t.test('a blank kept secret at start: a warning, and a cookie signed under the blank key is refused', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'emotion-hub-session-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, SESSION_SECRET_FILE), '');
  const { service, logs } = await startRealService(t, { EMOTIONS_FILE: join(dir, 'emotions.json') });
  t.ok(
    logs.some((line) => line.level === 40 && /held no secret \(blank\)/.test(String(line.msg))),
    'a warning names the file and what was done',
  );
  const forged = signSessionId(newSessionId(), '');
  t.ok(await cookieFrom(service.address, forged), 'an id signed with the empty key gets a fresh session');
});
