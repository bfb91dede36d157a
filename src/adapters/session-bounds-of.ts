import type { ChatConfig } from '../config/chat-config.js';
import type { SessionBounds } from '../conversations/session-bounds.js';
import type { Clock } from '../runtime/clock.js';

/** The bounds the environment sets (`MAX_SESSIONS`, `SESSION_IDLE_MS`, `MAX_SESSION_BYTES`), as the conversation stores take them. */
export function sessionBoundsOf(
  config: Pick<ChatConfig, 'maxSessions' | 'sessionIdleMs' | 'maxSessionBytes'>,
  clock: Clock,
): SessionBounds {
  return { maxSessions: config.maxSessions, idleMs: config.sessionIdleMs, maxBytes: config.maxSessionBytes, clock };
}
