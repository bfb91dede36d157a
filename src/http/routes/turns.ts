import type {} from '@fastify/sse';
import type { FastifyPluginAsync } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { TurnFrame, TurnLog } from '../../turns/turn-log.js';
import { endsTurn } from '../../turns/turn-log.js';
import type { CookiePolicy } from '../cookie-attributes.js';
import type { LongStreams } from '../long-streams.js';
import { httpError } from '../errors.js';
import { visitorSession } from '../session.js';
import { lastEventId, sseFrame } from '../sse-frame.js';
import type { VisitorFeed } from '../visitor-feed.js';
import type { Bus } from '../../bus/bus.js';
import type { SystemPhase } from '../../bus/events.js';
import { moodNow, subscribeToMood } from '../mood-feed.js';
import { avatarBody } from '../present.js';
import type { SystemClient } from '../system-client.js';

export interface TurnRoutesOptions {
  readonly bus: Bus;
  readonly system: SystemClient;
  readonly turns: TurnLog;
  readonly feed: VisitorFeed;
  readonly sessionSecret: string;
  readonly cookiePolicy?: CookiePolicy;
  /** The app's long-lived streams: their slow-reader bound and their cut at shutdown. */
  readonly streams: LongStreams;
}

/**
 * `GET /api/chat/turns/:id`: a streamed turn again, for the page that reloaded or lost its
 * connection: the frames after `Last-Event-ID` (or all), each once, then live until `done` or
 * `error`; only for the visitor who started it (404 otherwise, as for a turn long gone).
 * `GET /api/chat/feed`: the page's one lasting stream: a first `running` frame listing the visitor's
 * turns still running (to follow with the route above), the mood at once and at each change
 * (`mood`, `GET /api/events`' body), and what the visitor's tabs do (`VisitorFeed`: each turn, its
 * frames, its end, a new conversation). One stream, since a browser opens at most six to a server,
 * for all its tabs together.
 */
export const turnRoutes: FastifyPluginAsync<TurnRoutesOptions> = async (app, options) => {
  const { bus, system, turns, feed, sessionSecret, cookiePolicy, streams } = options;

  app.get<{ Params: { id: string } }>('/api/chat/turns/:id', { sse: 'manual' }, async (request, reply) => {
    const session = visitorSession(request, reply, sessionSecret, cookiePolicy);
    const after = lastEventId(request.headers['last-event-id']);
    if (after === undefined) throw httpError('BAD_REQUEST', { args: ['Last-Event-ID must be the id of a frame of the turn'] });
    // Frames read before the stream opens (all those kept) wait here, then go out in order.
    let socket: ServerResponse | undefined;
    const waiting: TurnFrame[] = [];
    const send = (frame: TurnFrame): void => {
      if (socket === undefined) {
        waiting.push(frame);
        return;
      }
      streams.write(socket, sseFrame(frame.data, frame.event, frame.id));
      if (endsTurn(frame.event)) socket.end();
    };
    const follower = await turns.follow(request.params.id, session, after, send);
    if (follower === undefined) throw httpError('TURN_NOT_FOUND');
    socket = streams.open(request, reply, () => follower.close());
    if (socket === undefined) return follower.close();
    for (const frame of waiting.splice(0)) send(frame);
    // Ended, and the reader has seen its last frame already (a `Last-Event-ID` at or past it): nothing to resend, nothing to wait for.
    if (follower.ended && !socket.writableEnded) socket.end();
  });

  // The mood, as `GET /api/events` pushes it: the page's one stream carries it too.
  const moodListeners = new Set<(frame: string) => void>();
  let phase: SystemPhase = 'initializing';
  const phases = bus.on('system.phase.changed').subscribe((event) => (phase = event.phase));
  const unsubscribe = subscribeToMood(bus, (state) => {
    const frame = sseFrame(JSON.stringify(avatarBody({ phase, ...state })), 'mood');
    for (const listener of moodListeners) listener(frame);
  });
  app.addHook('onClose', (_app, done) => {
    unsubscribe();
    phases.unsubscribe();
    done();
  });

  app.get('/api/chat/feed', { sse: 'manual' }, async (request, reply) => {
    const session = visitorSession(request, reply, sessionSecret, cookiePolicy);
    const status = await moodNow(system);
    phase = status.phase;
    const unlisten: (() => void)[] = [];
    const socket = streams.open(request, reply, () => {
      for (const stop of unlisten) stop();
    });
    if (socket === undefined) return;
    const write = (frame: string): void => streams.write(socket, frame);
    write(sseFrame(JSON.stringify({ turns: await turns.running(session) }), 'running'));
    write(sseFrame(JSON.stringify(avatarBody(status)), 'mood'));
    unlisten.push(feed.listen(session, write));
    moodListeners.add(write);
    unlisten.push(() => moodListeners.delete(write));
    // Gone already (closed while the first frames were written): its close has passed, so nobody else unlistens.
    if (socket.destroyed) for (const stop of unlisten) stop();
  });
};
