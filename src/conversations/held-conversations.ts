import type { LRUCache } from 'lru-cache';
import { untimed, type ConversationTurn, type TimedTurn } from './conversation-store.js';

/**
 * What every local store reads from: the sessions' turns in one bounded LRU cache (see
 * session-bounds.ts). The in-process store keeps only this; the embedded store writes through to disk.
 */
export abstract class HeldConversations {
  protected readonly sessions: LRUCache<string, readonly TimedTurn[]>;

  protected constructor(sessions: LRUCache<string, readonly TimedTurn[]>) {
    this.sessions = sessions;
  }

  /** Sessions currently held (stale ones included until they are touched or pushed out). */
  get size(): number {
    return this.sessions.size;
  }

  /** The held conversations' text in UTF-8 bytes. */
  get bytes(): number {
    return this.sessions.calculatedSize;
  }

  async history(sessionId: string): Promise<readonly ConversationTurn[]> {
    return untimed(await this.messages(sessionId));
  }

  async messages(sessionId: string): Promise<readonly TimedTurn[]> {
    return this.sessions.get(sessionId) ?? [];
  }
}
