import type { SessionKey } from '../bus/events.js';
import { sseFrame } from './sse-frame.js';

/**
 * What one tab tells the visitor's other tabs (`GET /api/chat/feed`): a turn began (`turn`, with the
 * message and what it redoes), a turn ended (`ended`: its reply is in the history, done, failed or
 * stopped), the conversation was forgotten (`cleared`).
 */
export type VisitorNews =
  | { readonly event: 'turn'; readonly data: { readonly id: string; readonly message: string; readonly redo?: 'regenerate' | 'edit' } }
  | { readonly event: 'ended'; readonly data: { readonly id: string } }
  | { readonly event: 'cleared'; readonly data: Record<string, never> };

/** The visitors' open feeds in this process, by session: each piece of news is made into a frame once. */
export class VisitorFeed {
  readonly #listeners = new Map<SessionKey, Set<(frame: string) => void>>();

  tell(session: SessionKey, news: VisitorNews): void {
    const listeners = this.#listeners.get(session);
    if (listeners === undefined) return;
    const frame = sseFrame(JSON.stringify(news.data), news.event);
    for (const listener of listeners) listener(frame);
  }

  /** Hears the visitor's news from now on; returns the unsubscribe. */
  listen(session: SessionKey, listener: (frame: string) => void): () => void {
    let listeners = this.#listeners.get(session);
    if (listeners === undefined) {
      listeners = new Set();
      this.#listeners.set(session, listeners);
    }
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.#listeners.get(session) === listeners) this.#listeners.delete(session);
    };
  }
}
