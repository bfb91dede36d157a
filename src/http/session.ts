import { createHmac, hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { fastifyCookie } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionKey } from '../bus/events.js';
import { LAX_COOKIES, sessionCookieAttributes, type CookiePolicy } from './cookie-attributes.js';

/** The cookie that carries a visitor's session id. */
export const SESSION_COOKIE = 'emotion_hub_session';

/** 16 random bytes (128 bits), base64url: exactly 22 characters of this alphabet. */
const SESSION_ID_BYTES = 16;

/** The cookie's value: the id, a dot, and its HMAC-SHA256 under the session secret (43 base64url characters). */
const SIGNED_ID = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

export function newSessionId(): string {
  return randomBytes(SESSION_ID_BYTES).toString('base64url');
}

function signature(id: string, secret: string): string {
  return createHmac('sha256', secret).update(id).digest('base64url');
}

/** The cookie value the service issues for `id`. */
export function signSessionId(id: string, secret: string): string {
  return `${id}.${signature(id, secret)}`;
}

/** The id of a cookie value this service (or a replica sharing its secret) issued; undefined for anything else. */
export function issuedSessionId(value: string | undefined, secret: string): string | undefined {
  const match = value === undefined ? null : SIGNED_ID.exec(value);
  if (match === null) return undefined;
  const [, id, signed] = match as unknown as [string, string, string];
  // Constant time: a signature must not be guessable byte by byte.
  return timingSafeEqual(Buffer.from(signature(id, secret)), Buffer.from(signed)) ? id : undefined;
}

/**
 * What the rest of the system knows a session by: the SHA-256 of its id. The id itself stays
 * between the browser and this module, so no log line or event can hand it out.
 */
export function sessionKey(sessionId: string): SessionKey {
  // The one-shot hash: no Hash object per chat.
  return hash('sha256', sessionId, 'hex');
}

/**
 * The visitor's session: the id from the cookie when the service issued it (its signature checks
 * under `secret`), else a new one, set on the reply. An id planted in a browser, or a tampered one,
 * is replaced and never finds a conversation. The cookie is `HttpOnly`, `Path=/`, with `SameSite`,
 * `Secure`, `Partitioned` as `sessionCookieAttributes` decides (`SameSite=Lax` unless the page may be
 * framed and the request came over https). A browser session cookie: the server forgets the
 * conversation after `SESSION_IDLE_MS` anyway.
 */
export function visitorSession(
  request: FastifyRequest,
  reply: FastifyReply,
  secret: string,
  policy: CookiePolicy = LAX_COOKIES,
): SessionKey {
  const current = issuedSessionId(request.cookies[SESSION_COOKIE], secret);
  if (current !== undefined) return sessionKey(current);
  const id = newSessionId();
  // A header rather than reply.setCookie, whose onSend hook never runs for a streamed answer (written to the socket).
  reply.header(
    'set-cookie',
    fastifyCookie.serialize(SESSION_COOKIE, signSessionId(id, secret), {
      httpOnly: true,
      path: '/',
      ...sessionCookieAttributes(policy, request),
    }),
  );
  return sessionKey(id);
}
