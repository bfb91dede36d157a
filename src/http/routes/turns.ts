import type {} from '@fastify/sse';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { TurnFrame, TurnLog } from '../../turns/turn-log.js';
import { endsTurn } from '../../turns/turn-log.js';
import type { CookiePolicy } from '../cookie-attributes.js';
import { httpError } from '../errors.js';
import { visitorSession } from '../session.js';
import { lastEventId, sseFrame } from '../sse-frame.js';
import type { VisitorFeed } from '../visitor-feed.js';

export interface TurnRoutesOptions {
  readonly turns: TurnLog;
  readonly feed: VisitorFeed;
  readonly sessionSecret: string;
  readonly cookiePolicy?: CookiePolicy;
}

/** Opens an event stream that stays open (heartbeats) until it is ended here or by the client. */
function openStream(reply: FastifyReply, streams: Set<ServerResponse>, onClose: () => void): ServerResponse {
  const socket = reply.raw;
  reply.sse.keepAlive();
  reply.sse.sendHeaders();
  streams.add(socket);
  reply.sse.onClose(() => {
    streams.delete(socket);
    onClose();
  });
  return socket;
}

/**
 * `GET /api/chat/turns/:id`: a streamed turn again, for the page that reloaded or lost its
 * connection: the frames after `Last-Event-ID` (or all), each once, then live until `done` or
 * `error`; only for the visitor who started it (404 otherwise, as for a turn long gone).
 * `GET /api/chat/feed`: what the visitor's other tabs do (`VisitorFeed`), after a first `running`
 * frame listing the visitor's turns still running, to follow with the route above.
 */
export const turnRoutes: FastifyPluginAsync<TurnRoutesOptions> = async (app, { turns, feed, sessionSecret, cookiePolicy }) => {
  const streams = new Set<ServerResponse>();
  app.addHook('preClose', (done) => {
    for (const socket of streams) socket.end();
    streams.clear();
    done();
  });

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
      if (socket.writableEnded) return;
      socket.write(sseFrame(frame.data, frame.event, frame.id));
      if (endsTurn(frame.event)) socket.end();
    };
    const follower = await turns.follow(request.params.id, session, after, send);
    if (follower === undefined) throw httpError('TURN_NOT_FOUND');
    socket = openStream(reply, streams, () => follower.close());
    for (const frame of waiting.splice(0)) send(frame);
  });

  app.get('/api/chat/feed', { sse: 'manual' }, async (request, reply) => {
    const session = visitorSession(request, reply, sessionSecret, cookiePolicy);
    let unlisten: () => void = () => undefined;
    const socket = openStream(reply, streams, () => unlisten());
    socket.write(sseFrame(JSON.stringify({ turns: turns.running(session) }), 'running'));
    unlisten = feed.listen(session, (frame) => {
      if (!socket.writableEnded) socket.write(frame);
    });
    // Gone already (closed while the first frame was written): its close has passed, so nobody else unlistens.
    if (socket.destroyed) unlisten();
  });
};
