import type { SessionKey } from '../bus/events.js';
import { sseFrame } from './sse-frame.js';
import { endsTurn, type TurnFollower, type TurnFrame, type TurnLog } from '../turns/turn-log.js';
import type { VisitorNews, VisitorRelay } from '../turns/visitor-relay.js';

export type { VisitorNews } from '../turns/visitor-relay.js';

/**
 * The visitors' open feeds in this process, by session: each piece of news is made into a frame
 * once. With replicas, the news also goes to the other replicas (`VisitorRelay`), and the news they
 * send is heard here: a turn another replica writes is followed in the turn log, its frames and its
 * end told to this visitor's tabs here, so that every tab is in step whichever replica serves it.
 */
export class VisitorFeed {
  readonly #listeners = new Map<SessionKey, Set<(frame: string) => void>>();
  readonly #turns: TurnLog;
  readonly #relay: VisitorRelay | undefined;
  /** The other replicas' turns followed for the tabs here, until each ends. */
  readonly #followed = new Set<TurnFollower>();

  constructor(options: { readonly turns: TurnLog; readonly relay?: VisitorRelay }) {
    this.#turns = options.turns;
    this.#relay = options.relay;
  }

  tell(session: SessionKey, news: VisitorNews): void {
    this.#relay?.publish(session, news);
    this.#tellHere(session, news);
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

  /**
   * News from another replica, for the tabs here. Its turn's frames come from the turn log, and its
   * end with them (the `ended` news itself could overtake the last frames), so it is not relayed.
   */
  async heard(session: SessionKey, news: VisitorNews): Promise<void> {
    if (!this.#listeners.has(session) || news.event === 'ended') return;
    this.#tellHere(session, news);
    if (news.event !== 'turn') return;
    const turn = news.data.id;
    let follower: TurnFollower | undefined;
    let ended = false;
    follower = await this.#turns.follow(turn, session, 0, (frame) => {
      this.tellFrame(session, turn, frame);
      if (!endsTurn(frame.event)) return;
      ended = true;
      this.#tellHere(session, { event: 'ended', data: { id: turn } });
      if (follower) {
        follower.close();
        this.#followed.delete(follower);
      }
    });
    if (follower !== undefined && !ended) this.#followed.add(follower);
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

  /** Stops following the other replicas' turns. */
  close(): void {
    for (const follower of this.#followed) follower.close();
    this.#followed.clear();
  }

  #tellHere(session: SessionKey, news: VisitorNews): void {
    if (this.#listeners.has(session)) this.#send(session, sseFrame(JSON.stringify(news.data), news.event));
  }

  #send(session: SessionKey, frame: string): void {
    for (const listener of this.#listeners.get(session) ?? []) listener(frame);
  }
}
