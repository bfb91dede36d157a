/** One turn of a conversation as the chat-completions API takes it. */
export interface ConversationTurn {
  readonly role: 'user' | 'assistant';
  readonly content: string;
}

/** How many exchanges (a message and its reply) a visitor's conversation keeps. */
export const DEFAULT_MEMORY_EXCHANGES = 10;

/**
 * Where each visitor's conversation lives, keyed by session id. The in-process store is the
 * default; a shared store (Redis) replaces it for replicas without the actors knowing.
 * Implementations bound each conversation to its last exchanges and forget idle sessions.
 */
export interface ConversationStore {
  /** The session's remembered turns, oldest first; empty for an unknown or forgotten session. */
  history(sessionId: string): Promise<readonly ConversationTurn[]>;
  /** Records one exchange of the session, forgetting the oldest beyond the bound. */
  remember(sessionId: string, message: string, reply: string): Promise<void>;
  /** Releases timers and connections. */
  close(): Promise<void>;
}
