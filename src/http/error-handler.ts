import type { FastifyError, FastifyInstance } from 'fastify';
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

/** Every error and every unknown path answers JSON with an `error` string. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const mapped = toHttpError(error);
    // A 500 is a fault here; 502/503/504 are the system's state or its provider, already logged where they happen.
    if (mapped.statusCode === 500) request.log.error({ ...requestIdFor(request), err: error, cause: mapped.cause }, mapped.message);
    else request.log.debug({ code: mapped.code, reason: error.message }, mapped.message);
    return reply.code(mapped.statusCode).send(mapped.body);
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send(httpError('NOT_FOUND', { args: [request.method, request.url.split('?')[0] ?? '/'] }).body),
  );
}
