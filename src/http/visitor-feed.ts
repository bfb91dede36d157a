import type { SessionKey } from '../bus/events.js';
import { sseFrame } from './sse-frame.js';
import type { TurnFrame } from '../turns/turn-log.js';

/**
 * What one tab tells the visitor's other tabs (`GET /api/chat/feed`): a turn began (`turn`, with the
 * message and what it redoes), each of its frames (`frame`), a turn ended (`ended`: its reply is in
 * the history, done, failed or stopped), the conversation was forgotten (`cleared`) or has imported
 * messages (`imported`).
 */
export type VisitorNews =
  | { readonly event: 'turn'; readonly data: { readonly id: string; readonly message: string; readonly redo?: 'regenerate' | 'edit' } }
  | { readonly event: 'ended'; readonly data: { readonly id: string } }
  | { readonly event: 'cleared'; readonly data: Record<string, never> }
  | { readonly event: 'imported'; readonly data: Record<string, never> };

/** The visitors' open feeds in this process, by session: each piece of news is made into a frame once. */
export class VisitorFeed {
  readonly #listeners = new Map<SessionKey, Set<(frame: string) => void>>();

  tell(session: SessionKey, news: VisitorNews): void {
    if (this.#listeners.has(session)) this.#send(session, sseFrame(JSON.stringify(news.data), news.event));
  }

  /**
   * A frame of one of the visitor's turns (`frame` `{"turn","id","event","data"}`): the other tabs grow
   * the reply from it without a stream of their own (a browser opens at most six to one server).
   */
  tellFrame(session: SessionKey, turn: string, frame: TurnFrame): void {
    if (!this.#listeners.has(session)) return;
    // The frame's data is JSON already: put in as it is, not encoded again.
    const data = `{"turn":${JSON.stringify(turn)},"id":${frame.id},"event":"${frame.event}","data":${frame.data}}`;
    this.#send(session, sseFrame(data, 'frame'));
  }

  #send(session: SessionKey, frame: string): void {
    for (const listener of this.#listeners.get(session) ?? []) listener(frame);
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
