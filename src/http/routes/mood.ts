import type { FastifyPluginAsync } from 'fastify';
import { httpError } from '../errors.js';
import type { SystemClient } from '../system-client.js';

export interface MoodRoutesOptions {
  readonly system: SystemClient;
}

/**
 * `GET /api/mood/why`: the latest changes of the shared mood (at most 50), the emotions before the
 * first and after the last, unrounded so that `from` plus the deltas is `emotions`, and each
 * emotion's totals by kind (drift, messages), rounded to 4 decimals. Numbers only:
 * no message text, since the mood is everyone's and the messages are not. Answered in every phase.
 */
export const moodRoutes: FastifyPluginAsync<MoodRoutesOptions> = async (app, { system }) => {
  app.get('/api/mood/why', async () => {
    const report = await system.moodWhy().catch((cause: unknown) => {
      throw httpError('MOOD_WHY_FAILED', { cause });
    });
    // Spelled out: an event's fields are not the body's.
    return { from: report.from, changes: report.changes, emotions: report.emotions, totals: report.totals };
  });
};
