/** One turn of a conversation as the chat-completions API takes it. */
export interface ConversationTurn {
  readonly role: 'user' | 'assistant';
  readonly content: string;
}

/** A remembered turn as the visitor sees it (`GET /api/history`): with the ISO 8601 time it was said. */
export interface TimedTurn extends ConversationTurn {
  readonly at: string;
}

/** When each side of an exchange was said: the message when it was accepted, the reply when it committed. */
export interface ExchangeTimes {
  readonly message: string;
  readonly reply: string;
}

/** How many exchanges (a message and its reply) a visitor's conversation keeps. */
export const DEFAULT_MEMORY_EXCHANGES = 10;

/** The time a store gives a turn remembered without one (an older version's, or a caller's that gave none). */
export const UNKNOWN_TIME = new Date(0).toISOString();

/** The exchange's two turns, timed, as every store keeps them. */
export function exchangeTurns(message: string, reply: string, times?: ExchangeTimes): [TimedTurn, TimedTurn] {
  return [
    { role: 'user', content: message, at: times?.message ?? UNKNOWN_TIME },
    { role: 'assistant', content: reply, at: times?.reply ?? UNKNOWN_TIME },
  ];
}

/** The turns as the model gets them: the times stay here (a provider may refuse a field it does not know). */
export function untimed(turns: readonly TimedTurn[]): ConversationTurn[] {
  return turns.map(({ role, content }) => ({ role, content }));
}

/**
 * Where each visitor's conversation lives, keyed by session id. The in-process store is the
 * default; a shared store (Redis) replaces it for replicas without the actors knowing.
 * Implementations bound each conversation to its last exchanges and forget idle sessions.
 */
export interface ConversationStore {
  /** The session's remembered turns, oldest first, as the model gets them; empty for an unknown or forgotten session. */
  history(sessionId: string): Promise<readonly ConversationTurn[]>;
  /** The same turns with the time each was said, for the visitor. */
  messages(sessionId: string): Promise<readonly TimedTurn[]>;
  /** Records one exchange of the session, forgetting the oldest beyond the bound. */
  remember(sessionId: string, message: string, reply: string, times?: ExchangeTimes): Promise<void>;
  /** Forgets the session's conversation: its next message starts afresh. */
  forget(sessionId: string): Promise<void>;
  /** Releases timers and connections. */
  close(): Promise<void>;
}
