import type {} from '@fastify/sse';
import type { FastifyPluginAsync } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { Bus } from '../../bus/bus.js';
import type { StatusReported, SystemPhase } from '../../bus/events.js';
import type { EmotionState } from '../../emotions/state.js';
import type { LongStreams } from '../long-streams.js';
import { moodNow, subscribeToMood } from '../mood-feed.js';
import { avatarBody } from '../present.js';
import { sseFrame } from '../sse-frame.js';
import type { SystemClient } from '../system-client.js';

/** What a frame is made of: the phase and the mood. */
type AvatarSource = Pick<StatusReported, 'phase'> & EmotionState;

export interface EventsRoutesOptions {
  readonly bus: Bus;
  readonly system: SystemClient;
  /** The app's long-lived streams: their slow-reader bound and their cut at shutdown. */
  readonly streams: LongStreams;
}

/**
 * `GET /api/events`: the mood, pushed. The first frame, at once, is `GET /api/avatar`'s body; then one
 * frame per mood change, with an `id:`, made once and written to every listener. The heartbeat
 * comment is @fastify/sse's (its interval is the app's `heartbeatMs`). A listener that stops reading
 * is dropped and every stream is cut at shutdown (`LongStreams`): EventSource reconnects with
 * `Last-Event-ID` and gets the current state as its first frame, which is all a frame ever says.
 */
export const eventsRoutes: FastifyPluginAsync<EventsRoutesOptions> = async (app, { bus, system, streams }) => {
  const listeners = new Set<ServerResponse>();
  let id = 0;
  const frameOf = (status: AvatarSource): string => sseFrame(JSON.stringify(avatarBody(status)), undefined, id);

  // The phase, for the body's `status` and `is_initialized`: followed here, so a change costs no status request.
  let phase: SystemPhase = 'initializing';
  const phases = bus.on('system.phase.changed').subscribe((event) => (phase = event.phase));
  const unsubscribe = subscribeToMood(bus, (state) => {
    id += 1;
    const frame = frameOf({ phase, ...state });
    for (const socket of listeners) streams.write(socket, frame);
  });
  app.addHook('preClose', (done) => {
    unsubscribe();
    phases.unsubscribe();
    listeners.clear();
    done();
  });

  app.get('/api/events', { sse: 'manual' }, async (request, reply) => {
    const status = await moodNow(system);
    phase = status.phase;
    const socket = streams.open(request, reply, () => listeners.delete(reply.raw));
    if (socket === undefined) return;
    streams.write(socket, frameOf(status));
    listeners.add(socket);
  });
};
