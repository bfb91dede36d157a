import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import { buildContext, handlerHeaders, type WebhookContext } from './context.js';
import type { DeliveryDedup } from './delivery-dedup.js';
import type { DeliveryEvents } from './delivery-events.js';
import { WebhookDeliveryError } from './errors.js';
import { type WebhookHandler, WebhookReply } from './handler.js';
import { redactSecrets } from './inspector/redact.js';
import { ANSWER_EXCERPT_CHARS, type DeliveryJournal, journalBody } from './journal/entry.js';
import { type HttpRefusal, notFound, pathOf, sendRefusal, toRefusal } from './http-errors.js';
import type { WebhookDelivered, WebhookRefusal } from './options.js';
import type { WebhookPayload } from './payload.js';
import { WEBHOOKS_PREFIX } from './route-name.js';
import { WEBHOOK_SECRET_HEADER, secretVerifier } from './secret.js';
import { validateWebhookPayload } from './validate-payload.js';

export interface WebhooksAppDeps {
  readonly secret: string | undefined;
  readonly bodyLimit: number;
  /** Milliseconds for the whole request, body included (408 and the connection closed after). */
  readonly requestTimeout: number;
  /** Milliseconds for the request line and headers. */
  readonly headersTimeout: number;
  readonly logger: Logger;
  readonly clock: Clock;
  /** The handler registered under a name, looked up per request so routes added after start work. */
  readonly handlerFor: (name: string) => WebhookHandler | undefined;
  readonly events: DeliveryEvents;
  readonly landingPage: () => Promise<string>;
  /** Set (`journal`): every delivery that carried the secret is appended, whatever the answer. */
  readonly journal?: DeliveryJournal;
  /** Set (`redisUrl`): a delivery whose `Webhook-Id` was handled already is answered 200 and not handled again. */
  readonly dedup?: DeliveryDedup;
  /** Told of each refused delivery (`onRefused`). */
  readonly onRefused?: (refusal: WebhookRefusal) => void;
  /** Told of each delivery a handler answered, once sent (`onDelivered`). */
  readonly onDelivered?: (delivery: WebhookDelivered) => void;
}

/**
 * The receiving server's Fastify app. Each delivery goes through, in order:
 * the secret (401/403, before the body is read), the route (404), the body's
 * media type and JSON (415/413/400), the payload schema (422), then the
 * `on(...)` listeners and the route's handler (500 when it throws).
 */
export function buildWebhooksApp(deps: WebhooksAppDeps): FastifyInstance {
  const tell = (request: FastifyRequest, refusal: HttpRefusal): void => {
    if (deps.onRefused === undefined || refusal.statusCode >= 500) return;
    try {
      deps.onRefused({ at: deps.clock.now(), method: request.method, route: pathOf(request), ...refusal });
    } catch (error) {
      request.log.error({ err: error }, 'an onRefused listener failed');
    }
  };
  const refuse = (error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const refusal = toRefusal(error, deps.bodyLimit);
    // The reason only: never the body, the query or the secret that came with it.
    const log = { route: pathOf(request), statusCode: refusal.statusCode, reason: error.name, code: (error as FastifyError).code };
    if (refusal.statusCode >= 500) request.log.error({ ...log, err: error }, 'webhook request failed');
    else request.log.warn(log, 'webhook request refused');
    tell(request, refusal);
    return sendRefusal(reply, refusal);
  };
  // A POST to a path no route serves is a delivery sent to the wrong place: told too.
  const refuseUnknown = (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const refusal = notFound(request);
    if (request.method === 'POST') tell(request, refusal);
    return sendRefusal(reply, refusal);
  };
  // Per request, without decorating Fastify's request object: the bytes as they came, and the time a
  // delivery that carried the secret was received (the journal writes those).
  const rawBodies = new WeakMap<FastifyRequest, Buffer>();
  const journaled = new WeakMap<FastifyRequest, Date>();
  const answers = new WeakMap<FastifyRequest, string>();
  const handled = new WeakMap<FastifyRequest, { payload: WebhookPayload; context: WebhookContext }>();
  const verifySecret = deps.secret === undefined ? undefined : secretVerifier(deps.secret);
  const checkSecret = (request: FastifyRequest): void => {
    verifySecret?.(headerValue(request.headers[WEBHOOK_SECRET_HEADER]));
  };

  const app: FastifyInstance = Fastify({
    // A logger that writes nothing (`logger: false`) is not given to Fastify, which then skips the
    // per-request child logger and response listeners; request.log is that logger all the same.
    ...(writes(deps.logger, 'error')
      ? { loggerInstance: deps.logger as FastifyBaseLogger }
      : { childLoggerFactory: () => deps.logger as FastifyBaseLogger }),
    bodyLimit: deps.bodyLimit,
    // Node cuts a request that has not arrived whole in time (a body that trickles in included): its URL
    // is public by nature. Node checks every `connectionsCheckingInterval`, so short timeouts check often.
    requestTimeout: deps.requestTimeout,
    http: {
      headersTimeout: deps.headersTimeout,
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(deps.headersTimeout / 4))),
    },
    // Request lines would carry the URL, and with it a `?secret=`; deliveries are logged below instead.
    logController: new LogController({ disableRequestLogging: true }),
    routerOptions: { ignoreTrailingSlash: true },
    // A URL the router cannot decode (`/webhooks/%E0%A4`) never reaches the routes, so Fastify would
    // answer its own 400 body without the secret check: a delivery route still asks for the secret first.
    frameworkErrors: (error, request, reply) => {
      try {
        if (request.method === 'POST' && isDeliveryPath(pathOf(request))) checkSecret(request);
      } catch (secretError) {
        return refuse(secretError as Error, request, reply);
      }
      return refuse(error, request, reply);
    },
  });
  // Only JSON is a delivery: without the text parser, text/plain is a 415 like every other type.
  app.removeContentTypeParser('text/plain');
  // Fastify's own JSON parsing (with its prototype-poisoning checks), keeping the bytes as they came:
  // a forwarder or the journal passes the delivery on unchanged.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    rawBodies.set(request, body as Buffer);
    void parseJson(request, (body as Buffer).toString('utf8'), done);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => refuse(error, request, reply));
  app.setNotFoundHandler((request, reply) => refuseUnknown(request, reply));
  // Fastify parses bodies before its not-found handler runs, so a PATCH with broken JSON would get a
  // 400 and a large one a 413: answer 404 before reading anything from a request no route serves.
  // Callback hooks, not async ones, here and on the delivery routes: they run on every request, and a
  // promise each time shows in the benchmark.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.is404) refuseUnknown(request, reply);
    else done();
  });

  app.get('/', async (_request, reply) => reply.type('text/html; charset=utf-8').send(await deps.landingPage()));

  const checkDelivery = (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void => {
    try {
      checkSecret(request);
      // Only a delivery that carried the secret is journaled: a stranger cannot fill the journal.
      if (deps.journal) journaled.set(request, deps.clock.now());
      const name = routeNameOf(request);
      if (name === '' ? deps.events.listenerCount === 0 : deps.handlerFor(name) === undefined) {
        throw new WebhookDeliveryError('WEBHOOK_NOT_REGISTERED', `${WEBHOOKS_PREFIX}${name === '' ? '' : `/${name}`}`);
      }
      done();
    } catch (error) {
      done(error as Error);
    }
  };

  const receive = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    // A POST without a body never reaches a content-type parser, so its type is checked here.
    if (request.headers['content-type'] === undefined) throw new WebhookDeliveryError('WEBHOOK_UNSUPPORTED_MEDIA_TYPE');
    const payload = validateWebhookPayload(request.body);
    const name = routeNameOf(request);
    const delivery = { route: name, webhookId: request.headers['webhook-id'] };
    const context = buildContext({
      name,
      payload,
      headers: request.headers,
      receivedAt: journaled.get(request) ?? deps.clock.now(),
      rawBody: rawBodies.get(request) ?? EMPTY,
      // Bound only when a handler or a failure asks for it: a child logger per delivery shows in the benchmark.
      log: () => request.log.child(delivery) as Logger,
    });
    const { dedup } = deps;
    const webhookId = dedup === undefined ? undefined : context.webhookId;
    if (webhookId !== undefined && !(await claimDelivery(dedup!, webhookId))) {
      context.log.info({ event: context.event }, 'webhook delivery repeated: handled already, not handled again');
      return reply.type('application/json; charset=utf-8').send(JSON.stringify({ duplicate: true }));
    }
    if (writes(request.log, 'info'))
      request.log.info({ ...delivery, event: context.event, repo: payload.repo.name }, 'webhook delivery received');
    deps.events.emit({ payload, context });
    const handler = name === '' ? undefined : deps.handlerFor(name);
    const body = await runHandler(handler, payload, context, reply);
    if (deps.onDelivered) handled.set(request, { payload, context });
    // A failed delivery stays unclaimed: the Hub's retry of it is handled.
    if (webhookId !== undefined && reply.statusCode >= 500) await dedup!.release(webhookId).catch(() => undefined);
    if (body instanceof WebhookReply) return reply.code(body.status).headers(body.headers).send(body.body);
    return reply.type('application/json; charset=utf-8').send(body);
  };

  const { journal, onDelivered } = deps;
  if (journal) {
    // The answer's first characters, for the journal: what a failing receiver said.
    app.addHook('onSend', (request, _reply, payload, done) => {
      if (journaled.has(request) && (typeof payload === 'string' || Buffer.isBuffer(payload)))
        answers.set(request, answerExcerpt(String(payload), deps.secret));
      done(null, payload);
    });
  }
  if (journal || onDelivered) {
    app.addHook('onResponse', (request, reply, done) => {
      // One measurement for the journal and `onDelivered`: from the request's first byte to the answer sent.
      const ms = Math.round(reply.elapsedTime * 10) / 10;
      const receivedAt = journaled.get(request);
      if (journal && receivedAt !== undefined) {
        const webhookId = request.headers['webhook-id'];
        const answer = answers.get(request);
        journal
          .append({
            webhookId: (Array.isArray(webhookId) ? webhookId.join(', ') : webhookId) ?? null,
            route: routeNameOf(request),
            receivedAt: receivedAt.toISOString(),
            headers: handlerHeaders(request.headers),
            ...journalBody(rawBodies.get(request)),
            status: reply.statusCode,
            ms,
            ...(answer === undefined || answer === '' ? {} : { answer }),
          })
          // The answer is sent: a journal that cannot write is logged, and changes nothing else.
          .catch((error: unknown) => request.log.error({ err: error, route: pathOf(request) }, 'webhook journal write failed'));
      }
      const delivered = onDelivered && handled.get(request);
      if (delivered) {
        try {
          onDelivered!({ ...delivered, status: reply.statusCode, ms });
        } catch (error) {
          request.log.error({ err: error }, 'an onDelivered listener failed');
        }
      }
      done();
    });
  }

  app.post(WEBHOOKS_PREFIX, { onRequest: checkDelivery }, receive);
  app.post(`${WEBHOOKS_PREFIX}/*`, { onRequest: checkDelivery }, receive);
  return app;
}

/** Whether this replica is the first to see the delivery; 503 (the Hub retries) when that cannot be known. */
async function claimDelivery(dedup: DeliveryDedup, webhookId: string): Promise<boolean> {
  try {
    return await dedup.claim(webhookId);
  } catch {
    throw new WebhookDeliveryError('WEBHOOK_DEDUP_UNAVAILABLE');
  }
}

/** The handler's result as JSON text; a throw is logged with the delivery and answered 500. */
async function runHandler(
  handler: WebhookHandler | undefined,
  payload: WebhookPayload,
  context: WebhookContext,
  reply: FastifyReply,
): Promise<string | WebhookReply> {
  try {
    const result = await handler?.(payload, context);
    return result instanceof WebhookReply ? result : (JSON.stringify(result ?? null) ?? 'null');
  } catch (error) {
    context.log.error({ err: error, event: context.event }, 'webhook handler failed');
    const failed = new WebhookDeliveryError('WEBHOOK_HANDLER_FAILED', context.name);
    reply.code(failed.statusCode);
    return JSON.stringify({ error: failed.message });
  }
}

const EMPTY = Buffer.alloc(0);

/** The answer's first characters, with the secret taken out: a handler that echoed it must not put it in the journal. */
function answerExcerpt(text: string, secret: string | undefined): string {
  if (secret === undefined) return text.slice(0, ANSWER_EXCERPT_CHARS);
  return redactSecrets(text.slice(0, ANSWER_EXCERPT_CHARS + secret.length), [secret]).slice(0, ANSWER_EXCERPT_CHARS);
}

function routeNameOf(request: FastifyRequest): string {
  const params = request.params as Record<string, string | undefined>;
  return (params['*'] ?? '').replace(/^\/+|\/+$/g, '');
}

function isDeliveryPath(path: string): boolean {
  return path === WEBHOOKS_PREFIX || path.startsWith(`${WEBHOOKS_PREFIX}/`);
}

/** Whether a line at `level` would be written (Fastify's logger type does not show pino's `isLevelEnabled`). */
function writes(logger: FastifyBaseLogger | Logger, level: 'error' | 'info'): boolean {
  return (logger as Logger).isLevelEnabled(level);
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}
