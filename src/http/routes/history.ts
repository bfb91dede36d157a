import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { HistoryMessage, HistoryReported } from '../../bus/events.js';
import { roundAppraisal } from '../../emotions/model.js';
import { httpError } from '../errors.js';
import type { CookiePolicy } from '../cookie-attributes.js';
import { visitorSession } from '../session.js';
import type { SystemClient } from '../system-client.js';
import type { VisitorFeed } from '../visitor-feed.js';

export interface HistoryRoutesOptions {
  readonly system: SystemClient;
  /** Checks and signs the session cookie (see `visitorSession`). */
  readonly sessionSecret: string;
  readonly cookiePolicy?: CookiePolicy;
  /** Tells the visitor's other tabs that the conversation was forgotten. */
  readonly feed: VisitorFeed;
}

/** A history entry as the visitor gets it: spelled out, since an event's fields are not the body's; the optional ones only when set. */
function historyEntry({ role, content, at, appraisal, turn, stopped, alternatives }: HistoryMessage): Record<string, unknown> {
  return {
    role,
    content,
    at,
    ...(appraisal === undefined ? {} : { appraisal: roundAppraisal(appraisal) }),
    ...(turn === undefined ? {} : { turn }),
    ...(stopped ? { stopped } : {}),
    ...(alternatives === undefined || alternatives.length === 0 ? {} : { alternatives }),
  };
}

/** `GET /api/history`: this visitor's conversation, `DELETE` forgets it; another visitor's is out of reach (the cookie says whose). */
export const historyRoutes: FastifyPluginAsync<HistoryRoutesOptions> = async (app, { system, sessionSecret, cookiePolicy, feed }) => {
  const answer = async (request: FastifyRequest, reply: FastifyReply, forget: boolean) => {
    let report: HistoryReported;
    const session = visitorSession(request, reply, sessionSecret, cookiePolicy);
    try {
      report = await system.history(session, forget);
    } catch (cause) {
      throw httpError('HISTORY_UNAVAILABLE', { cause });
    }
    if (report.error !== undefined) throw httpError('HISTORY_UNAVAILABLE', { cause: report.error });
    if (forget) feed.tell(session, { event: 'cleared', data: {} });
    return reply.send({ messages: report.messages.map(historyEntry) });
  };
  app.get('/api/history', (request, reply) => answer(request, reply, false));
  app.delete('/api/history', (request, reply) => answer(request, reply, true));
};
