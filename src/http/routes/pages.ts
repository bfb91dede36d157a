import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { httpError } from '../errors.js';
import type { PageName, PageRenderer } from '../page-renderer.js';
import type { CookiePolicy } from '../cookie-attributes.js';
import { visitorSession } from '../session.js';

export interface PageRoutesOptions {
  readonly pages: PageRenderer;
  /** Signs the session ids the page hands out. */
  readonly sessionSecret: string;
  /** The session cookie's SameSite/Secure/Partitioned rule (default: SameSite=Lax). */
  readonly cookiePolicy?: CookiePolicy;
}

export const pageRoutes: FastifyPluginAsync<PageRoutesOptions> = async (app, { pages, sessionSecret, cookiePolicy }) => {
  const page = (name: PageName) => async (_request: unknown, reply: FastifyReply) => {
    const html = await pages.render(name).catch((cause: unknown) => {
      throw httpError('PAGE_FAILED', { cause });
    });
    return reply.type('text/html; charset=utf-8').send(html);
  };
  app.get('/', async (request, reply) => {
    // The page hands the visitor a session before the first chat, so the two share one conversation.
    visitorSession(request, reply, sessionSecret, cookiePolicy);
    return page('index')(request, reply);
  });
  app.get('/error', page('error'));
};
