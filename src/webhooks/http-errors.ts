import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { WebhookDeliveryError } from './errors.js';

/** A refused request: its status and the `error` string of its JSON body. */
export interface HttpRefusal {
  readonly statusCode: number;
  readonly error: string;
}

/**
 * Maps whatever stopped a request (a refused delivery, one of Fastify's body
 * parsing errors) to a status and a message that tells the sender what to fix.
 * Anything unexpected is a 500 whose message reveals nothing.
 */
export function toRefusal(error: FastifyError | Error, bodyLimit: number): HttpRefusal {
  if (error instanceof WebhookDeliveryError) return { statusCode: error.statusCode, error: error.message };
  switch ((error as FastifyError).code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return unsupportedMediaType();
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { statusCode: 400, error: 'The request body is empty: a webhook delivery is a JSON payload.' };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { statusCode: 400, error: 'The request body is not valid JSON.' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { statusCode: 413, error: `The request body is larger than the limit of ${bodyLimit} bytes.` };
  }
  const statusCode = (error as FastifyError).statusCode;
  if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) return { statusCode, error: error.message };
  return { statusCode: 500, error: 'Internal server error.' };
}

export function unsupportedMediaType(): HttpRefusal {
  return { statusCode: 415, error: 'Unsupported Content-Type: a webhook delivery is JSON, sent as application/json.' };
}

export function notFound(request: FastifyRequest): HttpRefusal {
  return { statusCode: 404, error: `Not found: ${request.method} ${pathOf(request)}.` };
}

/** The path without its query string, which may hold a secret (the Hub allows `?secret=`). */
export function pathOf(request: FastifyRequest): string {
  return request.url.split('?', 1)[0] ?? '/';
}

export function sendRefusal(reply: FastifyReply, refusal: HttpRefusal): FastifyReply {
  return reply.code(refusal.statusCode).type('application/json; charset=utf-8').send({ error: refusal.error });
}
