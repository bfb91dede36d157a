import fastifyCookie from '@fastify/cookie';
import { fastifySSE } from '@fastify/sse';
import Fastify, { type FastifyInstance } from 'fastify';
import { join } from 'node:path';
import type { Bus } from '../bus/bus.js';
import type { ChatConfig } from '../config/chat-config.js';
import type { Clock } from '../runtime/clock.js';
import { DEFAULT_MAX_SESSION_BYTES } from '../config/defaults.js';
import type { Logger } from '../runtime/logger.js';
import { answerClientError } from './client-errors.js';
import { installErrorHandling } from './error-handler.js';
import { lazyValidators } from './lazy-validators.js';
import { boundPipelining } from './pipelining.js';
import { PUBLIC_DIR, createPageRenderer, type PageRenderer } from './page-renderer.js';
import { logListening, loggingOptions } from './request-logging.js';
import { installSecurityHeaders } from './security-headers.js';
import { assetRoutes } from './routes/assets.js';
import { avatarRoutes } from './routes/avatar.js';
import { chatRoutes } from './routes/chat.js';
import { eventsRoutes } from './routes/events.js';
import { LongStreams } from './long-streams.js';
import { historyRoutes } from './routes/history.js';
import { historyTransferRoutes } from './routes/history-transfer.js';
import { moodRoutes } from './routes/mood.js';
import { pageRoutes } from './routes/pages.js';
import { systemStatusRoutes } from './routes/system-status.js';
import { newSessionSecret } from '../config/session-secret.js';
import { SystemClient, type SystemTimeouts } from './system-client.js';
import { vendorFiles } from './vendor-files.js';
import { turnRoutes } from './routes/turns.js';
import { VisitorFeed } from './visitor-feed.js';
import { MemoryTurnLog } from '../turns/memory-turn-log.js';
import type { TurnLog } from '../turns/turn-log.js';
import type { VisitorRelay } from '../turns/visitor-relay.js';

/** The page polls `GET /api/avatar` this often (docs/specification.md#the-page). */
export const POLL_INTERVAL_MS = 1000;

export interface AppOptions {
  /** Fastify's own 503 to a request that comes while the server closes (default true); see chat-service.ts. */
  readonly return503OnClosing?: boolean;
  readonly bus: Bus;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly config: Pick<ChatConfig, 'maxMessageLength' | 'providerTimeoutMs'> &
    Partial<Pick<ChatConfig, 'trustProxy' | 'frameAncestors' | 'onSpace' | 'logRequests' | 'maxSessionBytes'>>;
  /** How long a client may take to send a whole request, headers and body (default 10 s). */
  readonly clientTimeoutMs?: number;
  /** Defaults: status 2 s; chat = three provider calls (the dialogue's first try and two retries) and a margin. */
  readonly timeouts?: Partial<SystemTimeouts>;
  /** Defaults to the templates in public/. */
  readonly pages?: PageRenderer;
  /** How often the page polls; docs/specification.md#the-page says every second, tests go faster. */
  readonly pollIntervalMs?: number;
  /** Folder of the page's assets, served under /assets/. */
  readonly assetsDir?: string;
  /** How often an event stream's heartbeat comment goes out (default 15 s; tests go faster). */
  readonly heartbeatMs?: number;
  /** Unsent bytes an event-stream listener may have before it is dropped (tests of the shutdown raise it). */
  readonly eventStreamBufferBytes?: number;
  /** Signs the session ids (see `loadSessionSecret`); defaults to a random one, good for this app only. */
  readonly sessionSecret?: string;
  /** Blanks the secrets out of an error body (a path or a message may quote one). */
  readonly redact?: (text: string) => string;
  /** Where streamed turns are kept for a page that comes back: a replica's on Redis, closed by its owner; by default the app's own, in process, closed with it. */
  readonly turns?: TurnLog;
  /** A replica's relay to the other replicas: the visitor's tabs on them hear its news, and its stops reach them. */
  readonly visitors?: VisitorRelay;
}

/** An event stream's heartbeat comment keeps proxies from closing a quiet stream. */
export const HEARTBEAT_MS = 15_000;

/** How long a client may take to send one request before it is cut off. */
export const DEFAULT_CLIENT_TIMEOUT_MS = 10_000;

/** Room for the longest message in UTF-8 (4 bytes a character at worst) and its JSON around it. */
export function bodyLimitFor(maxMessageLength: number): number {
  return maxMessageLength * 4 + 16 * 1024;
}

/** The chat service's HTTP app, not yet listening; everything it uses is injected. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { bus, clock, logger, config } = options;
  const clientTimeoutMs = options.clientTimeoutMs ?? DEFAULT_CLIENT_TIMEOUT_MS;
  const app = Fastify({
    return503OnClosing: options.return503OnClosing ?? true,
    // A client that trickles its headers or body is cut off (408) after clientTimeoutMs: Node checks
    // open requests every connectionsCheckingInterval (30 s by default, here at most 1 s).
    requestTimeout: clientTimeoutMs,
    http: {
      headersTimeout: clientTimeoutMs,
      requestTimeout: clientTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, clientTimeoutMs),
    },
    // Only a trusted proxy's X-Forwarded-Proto makes a request https (the session cookie's Secure flag).
    trustProxy: config.trustProxy ?? false,
    ...loggingOptions(logger, config.logRequests ?? false),
    bodyLimit: bodyLimitFor(config.maxMessageLength),
    // A number is not a message: schemas validate types as written.
    ajv: { customOptions: { coerceTypes: false } },
    // Cast: fastify's types give the compiler a bare schema; at run time it gets the route's { schema, method, url, httpPart }.
    schemaController: { compilersFactory: { buildValidator: lazyValidators() as never } },
    clientErrorHandler: answerClientError,
  });
  const system = new SystemClient(bus, {
    statusMs: options.timeouts?.statusMs ?? 2000,
    // LLM_TIMEOUT_MS bounds the dialogue's tries together; the margin covers the ledger and the bus.
    chatMs: options.timeouts?.chatMs ?? config.providerTimeoutMs + 10_000,
  });
  const pages =
    options.pages ??
    createPageRenderer({
      values: { maxMessageLength: config.maxMessageLength, pollIntervalMs: options.pollIntervalMs ?? POLL_INTERVAL_MS },
    });

  const turns = options.turns ?? ownTurnLog(app);
  const feed = new VisitorFeed({ turns, relay: options.visitors });
  app.addHook('onClose', async () => feed.close());
  const streams = new LongStreams(logger, options.eventStreamBufferBytes);
  app.addHook('preClose', (done) => {
    streams.closeAll();
    done();
  });
  // Another replica's news for the tabs here; its stops for the replies written here.
  options.visitors?.listen({
    news: (session, news) => {
      feed.heard(session, news).catch((error: unknown) => logger.debug({ err: error }, "another replica's turn could not be followed"));
    },
    stop: (session, turn) => {
      system.stop(session, turn).catch((error: unknown) => logger.debug({ err: error }, "another replica's stop did not reach the system"));
    },
  });

  const frameAncestors = config.frameAncestors ?? [];
  // Framed (a Space, FRAME_ANCESTORS), the session cookie must be SameSite=None to reach the frame.
  const cookiePolicy = { framable: frameAncestors.length > 0, trustForwardedProto: config.onSpace ?? false };

  logListening(app, logger, config.logRequests ?? false);
  boundPipelining(app.server);
  installErrorHandling(app, options.redact, (path) => pages.render('not-found', { path }));
  installSecurityHeaders(app, frameAncestors);
  // Before the routes: it wraps the handlers of the routes that declare `sse`.
  await app.register(fastifySSE, { heartbeatInterval: options.heartbeatMs ?? HEARTBEAT_MS });
  await app.register(assetRoutes, { dir: options.assetsDir ?? join(PUBLIC_DIR, 'assets'), files: vendorFiles() });
  // Only the page and the chat carry the session: the cookie parser's hook runs for them alone, not
  // for every poll of /api/avatar and /health.
  await app.register(async (session) => {
    await session.register(fastifyCookie);
    const sessionSecret = options.sessionSecret ?? newSessionSecret();
    await session.register(pageRoutes, { pages, sessionSecret, cookiePolicy, system, frameAncestors });
    await session.register(chatRoutes, {
      system,
      maxMessageLength: config.maxMessageLength,
      sessionSecret,
      cookiePolicy,
      turns,
      feed,
      visitors: options.visitors,
    });
    await session.register(historyRoutes, { system, sessionSecret, cookiePolicy, feed });
    await session.register(historyTransferRoutes, {
      system,
      sessionSecret,
      cookiePolicy,
      feed,
      turns,
      clock,
      maxMessageLength: config.maxMessageLength,
      maxImportBytes: config.maxSessionBytes ?? DEFAULT_MAX_SESSION_BYTES,
    });
    await session.register(turnRoutes, { bus, system, turns, feed, sessionSecret, cookiePolicy, streams });
  });
  await app.register(eventsRoutes, { bus, system, streams });
  await app.register(avatarRoutes, { system });
  await app.register(moodRoutes, { system });
  await app.register(systemStatusRoutes, { system, clock });
  return app;
}

/** A turn log in this process, the app's own: closed with it. */
function ownTurnLog(app: FastifyInstance): TurnLog {
  const turns = new MemoryTurnLog();
  app.addHook('onClose', async () => turns.close());
  return turns;
}
