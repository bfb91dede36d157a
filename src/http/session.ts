import { hash, randomBytes } from 'node:crypto';
import { fastifyCookie } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionKey } from '../bus/events.js';

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
 * the reply (`HttpOnly`, `SameSite=Lax`, `Path=/`, and `Secure` when the request came over https,
 * which Fastify judges from `X-Forwarded-Proto` only behind a trusted proxy). A browser session
 * cookie: the server forgets the conversation after `SESSION_IDLE_MS` anyway.
 */
export function visitorSession(request: FastifyRequest, reply: FastifyReply): SessionKey {
  const current = request.cookies[SESSION_COOKIE];
  if (current !== undefined && SESSION_ID.test(current)) return sessionKey(current);
  const id = newSessionId();
  // A header rather than reply.setCookie, whose onSend hook never runs for a streamed answer (written to the socket).
  reply.header(
    'set-cookie',
    fastifyCookie.serialize(SESSION_COOKIE, id, { httpOnly: true, sameSite: 'lax', path: '/', secure: request.protocol === 'https' }),
  );
  return sessionKey(id);
}
