import type { SessionKey } from '../bus/events.js';

/**
 * What one tab tells the visitor's other tabs (`GET /api/chat/feed`): a turn began (`turn`, with the
 * message and what it redoes), a turn ended (`ended`: its reply is in the history, done, failed or
 * stopped), the conversation was forgotten (`cleared`) or has imported messages (`imported`). A
 * turn's frames go on the feed too, from the turn log.
 */
export type VisitorNews =
  | { readonly event: 'turn'; readonly data: { readonly id: string; readonly message: string; readonly redo?: 'regenerate' | 'edit' } }
  | { readonly event: 'ended'; readonly data: { readonly id: string } }
  | { readonly event: 'cleared'; readonly data: Record<string, never> }
  | { readonly event: 'imported'; readonly data: Record<string, never> };

/** What a replica hears from the others about visitors: their news, and the stops asked of it. */
export interface VisitorRelayHandlers {
  news(session: SessionKey, news: VisitorNews): void;
  /** Stop the visitor's turn (or all its turns) if this process writes it. */
  stop(session: SessionKey, turn: string | undefined): void;
}

/**
 * Carries a visitor's news and stops between replicas, so that every tab of the visitor is in step
 * and a stop reaches the replica writing the reply, whichever replica each request lands on. Only
 * replicas have one (on Redis): one process alone has nobody to tell.
 */
export interface VisitorRelay {
  /** Tells the other replicas (not this one). */
  publish(session: SessionKey, news: VisitorNews): void;
  /**
   * Asks the other replicas to stop the visitor's turn (or all its turns); resolves with how many of
   * them were running elsewhere.
   */
  stop(session: SessionKey, turn: string | undefined): Promise<number>;
  /** Hears the other replicas from now on; one listener per process. */
  listen(handlers: VisitorRelayHandlers): void;
}
