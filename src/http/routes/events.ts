import type {} from '@fastify/sse';
import type { FastifyPluginAsync } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { Bus } from '../../bus/bus.js';
import type { StatusReported, SystemPhase } from '../../bus/events.js';
import type { EmotionState } from '../../emotions/state.js';
import type { Logger } from '../../runtime/logger.js';
import { moodNow, subscribeToMood } from '../mood-feed.js';
import { avatarBody } from '../present.js';
import { sseFrame } from '../sse-frame.js';
import type { SystemClient } from '../system-client.js';

/** What a frame is made of: the phase and the mood. */
type AvatarSource = Pick<StatusReported, 'phase'> & EmotionState;

export interface EventsRoutesOptions {
  readonly bus: Bus;
  readonly system: SystemClient;
  /** The service's logger: Fastify's own is silent unless request lines are on (LOG_REQUESTS). */
  readonly logger: Logger;
  /** Unsent bytes a listener may have before it is dropped (default `LISTENER_BUFFER_BYTES`). */
  readonly bufferBytes?: number;
}

/**
 * How many bytes may wait in the process for one listener (beyond what the kernel holds) before it
 * is dropped: about fifty frames. A reader that reads never comes near it; one that stopped reading
 * would otherwise cost ~300 bytes per mood change, for ever.
 */
export const LISTENER_BUFFER_BYTES = 16 * 1024;

/** At shutdown, how long an ended stream may take to go out before its socket is cut. */
export const LISTENER_CLOSE_GRACE_MS = 500;

/**
 * `GET /api/events`: the mood, pushed. The first frame, at once, is `GET /api/avatar`'s body; then one
 * frame per mood change, with an `id:`, made once and written to every listener. The heartbeat
 * comment is @fastify/sse's (its interval is the app's `heartbeatMs`). A listener whose unsent frames
 * pass `LISTENER_BUFFER_BYTES` is dropped (its socket destroyed, one `warn` line): EventSource
 * reconnects with `Last-Event-ID` and gets the current state as its first frame, which is all a
 * frame ever says. On close (shutdown) every stream ends, and a socket that has not taken its end
 * within `LISTENER_CLOSE_GRACE_MS` is destroyed, so the server never waits for listeners that do not read.
 */
export const eventsRoutes: FastifyPluginAsync<EventsRoutesOptions> = async (
  app,
  { bus, system, logger, bufferBytes = LISTENER_BUFFER_BYTES },
) => {
  const listeners = new Set<ServerResponse>();
  let id = 0;
  const frameOf = (status: AvatarSource): string => sseFrame(JSON.stringify(avatarBody(status)), undefined, id);

  // The phase, for the body's `status` and `is_initialized`: followed here, so a change costs no status request.
  let phase: SystemPhase = 'initializing';
  const phases = bus.on('system.phase.changed').subscribe((event) => (phase = event.phase));
  const unsubscribe = subscribeToMood(bus, (state) => {
    id += 1;
    const frame = frameOf({ phase, ...state });
    for (const socket of listeners) {
      if (socket.writableLength <= bufferBytes) socket.write(frame);
      else drop(socket);
    }
  });
  const drop = (socket: ServerResponse): void => {
    listeners.delete(socket);
    logger.warn(
      { unsentBytes: socket.writableLength, remoteAddress: socket.socket?.remoteAddress },
      'event-stream listener dropped: it stopped reading (it may reconnect and get the current state)',
    );
    socket.destroy();
  };
  app.addHook('preClose', (done) => {
    unsubscribe();
    phases.unsubscribe();
    for (const socket of listeners) {
      socket.end();
      setTimeout(() => socket.destroy(), LISTENER_CLOSE_GRACE_MS).unref();
    }
    listeners.clear();
    done();
  });

  app.get('/api/events', { sse: 'manual' }, async (_request, reply) => {
    const status = await moodNow(system);
    phase = status.phase;
    const socket = reply.raw;
    reply.sse.keepAlive();
    reply.sse.sendHeaders();
    socket.write(frameOf(status));
    listeners.add(socket);
    reply.sse.onClose(() => listeners.delete(socket));
  });
};
