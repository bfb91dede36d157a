import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { HistoryReported } from '../../bus/events.js';
import { httpError } from '../errors.js';
import type { CookiePolicy } from '../cookie-attributes.js';
import { visitorSession } from '../session.js';
import type { SystemClient } from '../system-client.js';

export interface HistoryRoutesOptions {
  readonly system: SystemClient;
  /** Checks and signs the session cookie (see `visitorSession`). */
  readonly sessionSecret: string;
  readonly cookiePolicy?: CookiePolicy;
}

/** `GET /api/history`: this visitor's conversation, `DELETE` forgets it; another visitor's is out of reach (the cookie says whose). */
export const historyRoutes: FastifyPluginAsync<HistoryRoutesOptions> = async (app, { system, sessionSecret, cookiePolicy }) => {
  const answer = async (request: FastifyRequest, reply: FastifyReply, forget: boolean) => {
    let report: HistoryReported;
    try {
      report = await system.history(visitorSession(request, reply, sessionSecret, cookiePolicy), forget);
    } catch (cause) {
      throw httpError('HISTORY_UNAVAILABLE', { cause });
    }
    if (report.error !== undefined) throw httpError('HISTORY_UNAVAILABLE', { cause: report.error });
    // Spelled out: an event's fields are not the body's.
    return reply.send({ messages: report.messages.map(({ role, content, at }) => ({ role, content, at })) });
  };
  app.get('/api/history', (request, reply) => answer(request, reply, false));
  app.delete('/api/history', (request, reply) => answer(request, reply, true));
};
