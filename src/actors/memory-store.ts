/** One turn of the conversation as the chat-completions API takes it. */
export interface ConversationTurn {
  readonly role: 'user' | 'assistant';
  readonly content: string;
}

/** How many exchanges (a message and its reply) the dialogue remembers. */
export const DEFAULT_MEMORY_EXCHANGES = 10;

/**
 * The conversation memory: the last few exchanges, kept in the process only (user text never
 * reaches the emotions file). Bounded, so prompts stay small however long the service runs.
 */
export class ConversationMemory {
  private turns: ConversationTurn[] = [];

  constructor(readonly maxExchanges: number = DEFAULT_MEMORY_EXCHANGES) {}

  /** Records an exchange and forgets the oldest ones beyond the bound. */
  remember(message: string, reply: string): void {
    this.turns.push({ role: 'user', content: message }, { role: 'assistant', content: reply });
    this.turns = this.turns.slice(-2 * this.maxExchanges);
  }

  history(): readonly ConversationTurn[] {
    return this.turns;
  }
}
