import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { newSessionId, SESSION_COOKIE, signSessionId } from '../../src/http/session.js';
import { SESSION_SECRET_FILE } from '../../src/config/session-secret.js';
import { startRealService } from '../support/real-service.js';
import { startRedisServer } from '../support/redis-server.js';
import { completion, modelList } from '../../testkit/provider-wire.js';
import { mockProviderHttp, mockedProvider } from '../../testkit/provider-nock.js';

mockProviderHttp(t, '127.0.0.1');

/** The session cookie value a GET / hands out, or undefined when it hands out none. */
async function cookieFrom(address: string, sent?: string): Promise<string | undefined> {
  const response = await fetch(`${address}/`, { headers: sent === undefined ? {} : { cookie: `${SESSION_COOKIE}=${sent}` } });
  await response.text();
  return response.headers.getSetCookie()[0]?.split(';')[0]?.split('=')[1];
}

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
  const provider = mockedProvider();
  provider.scope.persist();
  provider.models().reply(200, modelList());
  provider.completions().reply(200, completion('Noted.'));
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
