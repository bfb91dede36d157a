import type { FastifyPluginAsync } from 'fastify';
import { httpError } from '../errors.js';
import { avatarBody } from '../present.js';
import { avatarResponse } from '../response-schemas.js';
import type { SystemClient } from '../system-client.js';

export interface AvatarRoutesOptions {
  readonly system: SystemClient;
}

export const avatarRoutes: FastifyPluginAsync<AvatarRoutesOptions> = async (app, { system }) => {
  // 200 in every phase (the page polls it every second); 500 only when the system cannot be asked.
  app.get('/api/avatar', { schema: { response: avatarResponse } }, async () => {
    try {
      return avatarBody(await system.status());
    } catch (cause) {
      throw httpError('AVATAR_FAILED', undefined, cause);
    }
  });
};
