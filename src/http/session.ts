import { hash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionKey } from '../bus/events.js';
import { LAX_COOKIES, sessionCookieAttributes, type CookiePolicy } from './cookie-attributes.js';

/** The cookie that carries a visitor's session id. */
export const SESSION_COOKIE = 'emotion_hub_session';

/** 16 random bytes (128 bits), base64url: exactly 22 characters of this alphabet. */
const SESSION_ID_BYTES = 16;
const SESSION_ID = /^[A-Za-z0-9_-]{22}$/;

export function newSessionId(): string {
  return randomBytes(SESSION_ID_BYTES).toString('base64url');
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
 * The visitor's session: the id from the cookie when it has the right form, else a new one, set on
 * the reply (`HttpOnly`, `Path=/`, and `SameSite`, `Secure`, `Partitioned` as `sessionCookieAttributes`
 * decides: `SameSite=Lax` unless the page may be framed and the request came over https). A browser
 * session cookie: the server forgets the conversation after `SESSION_IDLE_MS` anyway.
 */
export function visitorSession(request: FastifyRequest, reply: FastifyReply, policy: CookiePolicy = LAX_COOKIES): SessionKey {
  const current = request.cookies[SESSION_COOKIE];
  if (current !== undefined && SESSION_ID.test(current)) return sessionKey(current);
  const id = newSessionId();
  reply.setCookie(SESSION_COOKIE, id, { httpOnly: true, path: '/', ...sessionCookieAttributes(policy, request) });
  return sessionKey(id);
}
