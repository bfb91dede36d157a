import t from 'tap';
import { issuedSessionId, newSessionId, SESSION_COOKIE, sessionKey, signSessionId } from '../../src/http/session.js';
import { chat, harness } from '../support/harness.js';

const SECRET = 'a-session-secret-of-at-least-32-characters';
/** The cookie: the id and its signature; group 1 is the whole value, group 2 the id. */
const COOKIE = new RegExp(`^${SESSION_COOKIE}=(([A-Za-z0-9_-]{22})\\.[A-Za-z0-9_-]{43}); Path=/; HttpOnly; SameSite=Lax$`);

t.test('GET / gives a new visitor a session cookie: 128 random bits, HttpOnly, SameSite=Lax, Path=/', async (t) => {
  const { app } = await harness(t, { system: 'fake' });
  const first = await app.inject({ method: 'GET', url: '/' });
  const second = await app.inject({ method: 'GET', url: '/' });
  const [, value, id] = COOKIE.exec(String(first.headers['set-cookie'])) ?? [];
  t.ok(id, String(first.headers['set-cookie']));
  t.equal(Buffer.from(id!, 'base64url').length, 16);
  t.not(COOKIE.exec(String(second.headers['set-cookie']))?.[2], id, 'every new visitor gets a new id');
  const back = await app.inject({ method: 'GET', url: '/', cookies: { [SESSION_COOKIE]: value! } });
  t.equal(back.headers['set-cookie'], undefined, 'a visitor with a session keeps it');
});

t.test('POST /api/chat: the bus gets the session key (a SHA-256), never the id; a cookie is set when absent or malformed', async (t) => {
  const { app, system } = await harness(t, { system: 'fake' });
  const fresh = await chat(app, { message: 'hello' });
  const [, value, id] = COOKIE.exec(String(fresh.headers['set-cookie'])) ?? [];
  t.ok(id);
  const again = await app.inject({
    method: 'POST',
    url: '/api/chat',
    payload: { message: 'again' },
    cookies: { [SESSION_COOKIE]: value! },
  });
  t.equal(again.statusCode, 200);
  t.equal(again.headers['set-cookie'], undefined);
  t.same(system.sessions, [sessionKey(id!), sessionKey(id!)]);
  t.match(system.sessions[0], /^[0-9a-f]{64}$/);
  const forged = await app.inject({
    method: 'POST',
    url: '/api/chat',
    payload: { message: 'x' },
    cookies: { [SESSION_COOKIE]: '../../etc' },
  });
  t.match(String(forged.headers['set-cookie']), COOKIE, 'an id of the wrong form is replaced');
  t.not(system.sessions[2], sessionKey('../../etc'));
});

t.test('a chat refused while initializing still hands out the session cookie', async (t) => {
  const { app, system } = await harness(t, { system: 'fake' });
  system.phase = 'initializing';
  const response = await chat(app, { message: 'hello' });
  t.equal(response.statusCode, 503);
  t.match(String(response.headers['set-cookie']), COOKIE);
});

t.test('Secure only over https: X-Forwarded-Proto counts only behind a trusted proxy (TRUST_PROXY)', async (t) => {
  const untrusted = await harness(t, { system: 'fake' });
  const spoofed = await untrusted.app.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-proto': 'https' } });
  t.notMatch(String(spoofed.headers['set-cookie']), /Secure/, 'no trusted proxy: the header is ignored');
  const trusted = await harness(t, { system: 'fake', app: { config: { maxMessageLength: 50, providerTimeoutMs: 50, trustProxy: true } } });
  const proxied = await trusted.app.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-proto': 'https' } });
  t.match(String(proxied.headers['set-cookie']), /; Secure/);
  const plain = await trusted.app.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-proto': 'http' } });
  t.notMatch(String(plain.headers['set-cookie']), /Secure/);
});

t.test('the session id never reaches a log line, even with request lines on (LOG_REQUESTS) and debug', async (t) => {
  const { app, logs } = await harness(t, {
    system: 'fake',
    app: { config: { maxMessageLength: 50, providerTimeoutMs: 50, logRequests: true } },
  });
  const first = await app.inject({ method: 'GET', url: '/' });
  const [, value, id] = COOKIE.exec(String(first.headers['set-cookie'])) ?? [];
  await app.inject({ method: 'POST', url: '/api/chat', payload: { message: 'hi' }, cookies: { [SESSION_COOKIE]: value! } });
  t.ok(logs().length > 0);
  t.notMatch(JSON.stringify(logs()), id!);
});

t.test('an id the service did not issue is replaced: a planted well-formed id, a tampered or foreign signature', async (t) => {
  const { app, system } = await harness(t, { system: 'fake', app: { sessionSecret: SECRET } });
  const planted = newSessionId();
  const issued = newSessionId();
  const cases: Array<[string, string]> = [
    ['a planted id of the old, unsigned form', planted],
    ['a planted id with a signature under another secret', signSessionId(planted, 'another-secret-of-at-least-32-characters')],
    ['a tampered signature', `${signSessionId(issued, SECRET).slice(0, -1)}${signSessionId(issued, SECRET).endsWith('A') ? 'B' : 'A'}`],
    ['an issued signature on another id', `${planted}.${signSessionId(issued, SECRET).split('.')[1]}`],
  ];
  for (const [name, value] of cases) {
    const response = await app.inject({
      method: 'POST',
      url: '/api/chat',
      payload: { message: 'hi' },
      cookies: { [SESSION_COOKIE]: value },
    });
    const [, , id] = COOKIE.exec(String(response.headers['set-cookie'])) ?? [];
    t.ok(id, `${name}: a fresh cookie is set`);
    t.not(id, planted, `${name}: not the planted id`);
    t.equal(system.sessions.at(-1), sessionKey(id!), `${name}: the chat runs in the fresh session`);
    t.not(system.sessions.at(-1), sessionKey(planted), `${name}: never the planted one's conversation`);
  }
  const genuine = await app.inject({
    method: 'POST',
    url: '/api/chat',
    payload: { message: 'hi' },
    cookies: { [SESSION_COOKIE]: signSessionId(issued, SECRET) },
  });
  t.equal(genuine.headers['set-cookie'], undefined, 'an issued id is kept');
  t.equal(system.sessions.at(-1), sessionKey(issued));
  t.equal(issuedSessionId(signSessionId(issued, SECRET), SECRET), issued);
  t.equal(issuedSessionId(undefined, SECRET), undefined);
});
