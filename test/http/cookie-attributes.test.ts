import t from 'tap';
import { LAX_COOKIES, sessionCookieAttributes } from '../../src/http/cookie-attributes.js';

const framed = { framable: true, trustForwardedProto: false };
const space = { framable: true, trustForwardedProto: true };
const request = (protocol: string, forwarded?: string | string[]) => ({
  protocol,
  headers: forwarded === undefined ? {} : { 'x-forwarded-proto': forwarded },
});
const lax = { sameSite: 'lax', secure: false, partitioned: false };
const laxSecure = { sameSite: 'lax', secure: true, partitioned: false };
const none = { sameSite: 'none', secure: true, partitioned: true };

t.test('SameSite=None; Secure; Partitioned only where framing is allowed and the request came over https', (t) => {
  t.same(sessionCookieAttributes(LAX_COOKIES, request('http')), lax, 'not framable, http: as before');
  t.same(sessionCookieAttributes(LAX_COOKIES, request('https')), laxSecure, 'not framable, https: Lax and Secure');
  t.same(sessionCookieAttributes(framed, request('https')), none, 'framable over https (TLS, or a trusted proxy)');
  t.same(sessionCookieAttributes(framed, request('http')), lax, 'framable over http: SameSite=None would need Secure');
  t.same(sessionCookieAttributes(framed, request('http', 'https')), lax, 'an X-Forwarded-Proto nobody trusts is ignored');
  t.end();
});

t.test("on a Space the proxy's X-Forwarded-Proto is believed (its first value)", (t) => {
  t.same(sessionCookieAttributes(space, request('http', 'https')), none);
  t.same(sessionCookieAttributes(space, request('http', 'HTTPS, http')), none);
  t.same(sessionCookieAttributes(space, request('http', ['https', 'http'])), none);
  t.same(sessionCookieAttributes(space, request('http', 'http')), lax);
  t.same(sessionCookieAttributes(space, request('http')), lax, 'no header: http');
  t.same(sessionCookieAttributes({ framable: false, trustForwardedProto: true }, request('http', 'https')), laxSecure);
  t.end();
});
