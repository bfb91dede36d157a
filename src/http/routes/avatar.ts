import type { FastifyPluginAsync } from 'fastify';
import type { StatusReported } from '../../bus/events.js';
import { httpError } from '../errors.js';
import { avatarBody } from '../present.js';
import { avatarResponse } from '../response-schemas.js';
import type { SystemClient } from '../system-client.js';

export interface AvatarRoutesOptions {
  readonly system: SystemClient;
}

/** What an avatar body is made of; the front desk hands out the same emotions and sentiment objects until they change. */
type AvatarSource = Pick<StatusReported, 'phase' | 'emotions' | 'sentiment' | 'avatarShape' | 'lastUpdated'>;

function sameSource(a: AvatarSource, b: AvatarSource): boolean {
  return (
    a.emotions === b.emotions &&
    a.sentiment === b.sentiment &&
    a.phase === b.phase &&
    a.avatarShape === b.avatarShape &&
    a.lastUpdated === b.lastUpdated
  );
}

export const avatarRoutes: FastifyPluginAsync<AvatarRoutesOptions> = async (app, { system }) => {
  // The page polls every second and the state changes only on a chat, so the body serialized from the
  // schema is kept until the status report differs (the state's objects are replaced, never mutated).
  let cached: { readonly source: AvatarSource; readonly json: string } | undefined;

  // 200 in every phase (the page polls it every second); 500 only when the system cannot be asked.
  app.get('/api/avatar', { schema: { response: avatarResponse } }, async (_request, reply) => {
    let status: StatusReported;
    try {
      status = await system.status();
    } catch (cause) {
      throw httpError('AVATAR_FAILED', { cause });
    }
    if (cached === undefined || !sameSource(cached.source, status)) {
      // The route's schema serializer (fast-json-stringify) makes a string.
      cached = { source: status, json: reply.serialize(avatarBody(status)) as string };
    }
    return reply.type('application/json; charset=utf-8').send(cached.json);
  });
};
