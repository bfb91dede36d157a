import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { httpError } from '../errors.js';
import type { PageName, PageRenderer } from '../page-renderer.js';
import type { CookiePolicy } from '../cookie-attributes.js';
import { firstPaint } from '../first-paint.js';
import { contentSecurityPolicy } from '../security-headers.js';
import { visitorSession } from '../session.js';
import type { SystemClient } from '../system-client.js';
import { THEME_COOKIE, themeOf } from '../theme.js';

export interface PageRoutesOptions {
  readonly pages: PageRenderer;
  /** Signs the session ids the page hands out. */
  readonly sessionSecret: string;
  /** The session cookie's SameSite/Secure/Partitioned rule (default: SameSite=Lax). */
  readonly cookiePolicy?: CookiePolicy;
  /** Asked for the mood the page opens with. */
  readonly system: Pick<SystemClient, 'status'>;
  /** Who may frame the page: its policy names them, with the nonce of its first-paint style. */
  readonly frameAncestors?: readonly string[];
}

export const pageRoutes: FastifyPluginAsync<PageRoutesOptions> = async (
  app,
  { pages, sessionSecret, cookiePolicy, system, frameAncestors = [] },
) => {
  const page = (name: PageName) => async (_request: unknown, reply: FastifyReply, values?: Record<string, string>) => {
    const html = await pages.render(name, values).catch((cause: unknown) => {
      throw httpError('PAGE_FAILED', { cause });
    });
    return reply.type('text/html; charset=utf-8').send(html);
  };
  app.get('/', async (request, reply) => {
    // The page hands the visitor a session before the first chat, so the two share one conversation.
    visitorSession(request, reply, sessionSecret, cookiePolicy);
    // It opens with the mood as it is; a system that cannot say in time leaves that to the first poll.
    const paint = await firstPaint(await system.status().catch(() => undefined));
    reply.header('content-security-policy', contentSecurityPolicy(frameAncestors, paint.styleNonce));
    // The theme the visitor chose, in the HTML itself: no flash of the device's scheme first.
    return page('index')(request, reply, { ...paint.values, theme: themeOf(request.cookies[THEME_COOKIE]) });
  });
  app.get('/error', page('error'));
};
