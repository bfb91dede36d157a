import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { prefersHtml } from './content-negotiation.js';
import { HttpError, httpError } from './errors.js';
import { requestIdFor } from './request-logging.js';

/**
 * Any error a request can end in, as one of the table's errors: ours pass
 * through; fastify's own 4xx (broken framing, too large a body, …) keep their
 * status and message; anything else is a 500 that tells the client nothing
 * internal.
 */
export function toHttpError(error: FastifyError | Error): HttpError {
  if (error instanceof HttpError) return error;
  const { code, statusCode } = error as Partial<FastifyError>;
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return httpError('BODY_TOO_LARGE', { cause: error });
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return httpError('UNSUPPORTED_MEDIA_TYPE', { cause: error });
  if ((error as Partial<FastifyError>).validation) return httpError('BAD_REQUEST', { args: [error.message], cause: error });
  if (code?.startsWith('FST_ERR_CTP_') && statusCode === 400) return httpError('MALFORMED_JSON', { args: [error.message], cause: error });
  if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) {
    return httpError('BAD_REQUEST', { args: [error.message], cause: error, statusCode });
  }
  return httpError('INTERNAL', { cause: error });
}

/** An error body with every secret blanked out of its strings (a path or a parser's message may quote one). */
function redactedBody(body: HttpError['body'], redact: (text: string) => string): HttpError['body'] {
  return JSON.parse(redact(JSON.stringify(body))) as HttpError['body'];
}

/** What a request answers when even its error cannot be answered. */
const FALLBACK_BODY = JSON.stringify({ error: httpError('INTERNAL').message });

/** The HTML page a browser gets for an unknown path (`path` as asked). */
export type NotFoundPage = (path: string) => Promise<string>;

/** A browser's navigation (GET or HEAD, asking for HTML first) to an unknown path, when there is a page for it. */
function wantsPage(request: FastifyRequest, page: NotFoundPage | undefined): page is NotFoundPage {
  return page !== undefined && (request.method === 'GET' || request.method === 'HEAD') && prefersHtml(request.headers.accept);
}

async function answerNotFound(reply: FastifyReply, page: NotFoundPage, path: string, json: HttpError['body']) {
  try {
    return reply
      .code(404)
      .type('text/html; charset=utf-8')
      .send(await page(path));
  } catch {
    // No page to show (its template unreadable): the JSON every client understands.
    return reply.code(404).send(json);
  }
}

/**
 * Every error and every unknown path answers JSON with an `error` string, no secret in it; a browser
 * that asks for an unknown path (by `Accept`) gets `notFoundPage` instead, a page with a way back.
 */
export function installErrorHandling(
  app: FastifyInstance,
  redact: (text: string) => string = (text) => text,
  notFoundPage?: NotFoundPage,
): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    try {
      const mapped = toHttpError(error);
      // A 500 is a fault here, logged once with its stack; 502/503/504 are the system's state or its
      // provider, already logged where they happen.
      if (mapped.statusCode === 500) request.log.error({ ...requestIdFor(request), err: error }, mapped.message);
      else request.log.debug({ code: mapped.code, reason: error.message }, mapped.message);
      if (mapped.retryAfterSeconds !== undefined) reply.header('retry-after', String(mapped.retryAfterSeconds));
      const body = redactedBody(mapped.body, redact);
      if (mapped.code === 'NOT_FOUND' && wantsPage(request, notFoundPage))
        return answerNotFound(reply, notFoundPage, redact(pathOf(request)), body);
      return reply.code(mapped.statusCode).send(body);
    } catch {
      // The handler itself must never fail (a body or a log line that cannot be written): a plain 500.
      return reply.code(500).type('application/json; charset=utf-8').send(FALLBACK_BODY);
    }
  });
  app.setNotFoundHandler((request, reply) => {
    const body = redactedBody(httpError('NOT_FOUND', { args: [request.method, pathOf(request)] }).body, redact);
    if (wantsPage(request, notFoundPage)) return answerNotFound(reply, notFoundPage, redact(pathOf(request)), body);
    return reply.code(404).send(body);
  });
}

const pathOf = (request: FastifyRequest) => request.url.split('?')[0] ?? '/';
