import t from 'tap';
import { SESSION_COOKIE } from '../../src/http/session.js';
import { chat, harness } from '../support/harness.js';

// The headers a Space's frame needs, from the real app: who may frame the page, and a session cookie
// that reaches the frame.
const config = (more: object) => ({ maxMessageLength: 50, providerTimeoutMs: 50, ...more });
const cookie = (response: { headers: Record<string, unknown> }) => String(response.headers['set-cookie']);

t.test('by default nobody may frame the page: frame-ancestors none, X-Frame-Options DENY, SameSite=Lax', async (t) => {
  const { app } = await harness(t, { system: 'fake' });
  const page = await app.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-proto': 'https' } });
  t.match(page.headers['content-security-policy'], /frame-ancestors 'none'/);
  t.equal(page.headers['x-frame-options'], 'DENY');
  t.match(cookie(page), new RegExp(`^${SESSION_COOKIE}=[\\w-]{22}\\.[\\w-]{43}; Path=/; HttpOnly; SameSite=Lax$`));
});

t.test('on a Space: huggingface.co may frame it, and over https the cookie is SameSite=None; Secure; Partitioned', async (t) => {
  const { app } = await harness(t, {
    system: 'fake',
    app: { config: config({ frameAncestors: ['https://huggingface.co'], onSpace: true }) },
  });
  const page = await app.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-proto': 'https' } });
  t.match(page.headers['content-security-policy'], /frame-ancestors https:\/\/huggingface\.co(;|$)/);
  t.notMatch(page.headers['content-security-policy'], /frame-ancestors 'none'/);
  t.equal(page.headers['x-frame-options'], undefined, 'no X-Frame-Options: DENY where framing is allowed');
  t.match(cookie(page), /; Path=\/; HttpOnly; Secure; Partitioned; SameSite=None$/);
  const chatted = await chat(app, { message: 'hi' });
  t.match(cookie(chatted), /SameSite=Lax/, 'the same Space over plain http (no forwarded https): Lax');
  t.notMatch(cookie(chatted), /Secure|Partitioned/);
  const avatar = await app.inject({ method: 'GET', url: '/api/avatar' });
  t.match(avatar.headers['content-security-policy'], /frame-ancestors https:\/\/huggingface\.co/, 'every answer says so');
});

t.test('FRAME_ANCESTORS outside a Space: those origins; the forwarded scheme counts only behind TRUST_PROXY', async (t) => {
  const origins = ['http://127.0.0.2:8080', 'https://example.com'];
  const { app } = await harness(t, { system: 'fake', app: { config: config({ frameAncestors: origins }) } });
  const page = await app.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-proto': 'https' } });
  t.match(page.headers['content-security-policy'], /frame-ancestors http:\/\/127\.0\.0\.2:8080 https:\/\/example\.com/);
  t.equal(page.headers['x-frame-options'], undefined);
  t.match(cookie(page), /SameSite=Lax$/, 'X-Forwarded-Proto from an untrusted client changes nothing');
  const trusted = await harness(t, { system: 'fake', app: { config: config({ frameAncestors: origins, trustProxy: true }) } });
  const proxied = await chat(trusted.app, { message: 'hi' }).then(() =>
    trusted.app.inject({ method: 'POST', url: '/api/chat', payload: { message: 'hi' }, headers: { 'x-forwarded-proto': 'https' } }),
  );
  t.match(cookie(proxied), /; Secure; Partitioned; SameSite=None$/);
});
