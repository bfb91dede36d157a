import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { type ErrorArgument, ERRORS, errorMessage } from '../errors/catalogue.js';
import { WebhookDeliveryError, type WebhookErrorCode } from './errors.js';

/** A refused request: its status and the `error` string of its JSON body. */
export interface HttpRefusal {
  readonly statusCode: number;
  readonly error: string;
}

/**
 * Maps whatever stopped a request (a refused delivery, one of Fastify's body
 * parsing errors) to a status and a message that tells the sender what to fix,
 * from the error table. Anything unexpected is a 500 whose message reveals nothing.
 */
export function toRefusal(error: FastifyError | Error, bodyLimit: number): HttpRefusal {
  if (error instanceof WebhookDeliveryError) return { statusCode: error.statusCode, error: error.message };
  switch ((error as FastifyError).code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return refusal('WEBHOOK_UNSUPPORTED_MEDIA_TYPE');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return refusal('WEBHOOK_EMPTY_BODY');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return refusal('WEBHOOK_MALFORMED_BODY');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return refusal('WEBHOOK_BODY_TOO_LARGE', bodyLimit);
  }
  const statusCode = (error as FastifyError).statusCode;
  if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) return { statusCode, error: error.message };
  return refusal('WEBHOOK_INTERNAL');
}

function refusal(code: WebhookErrorCode, ...args: readonly ErrorArgument[]): HttpRefusal {
  return { statusCode: ERRORS[code].statusCode, error: errorMessage(code, args) };
}

export function notFound(request: FastifyRequest): HttpRefusal {
  return refusal('WEBHOOK_NOT_FOUND', request.method, pathOf(request));
}

/** The path without its query string, which may hold a secret (the Hub allows `?secret=`). */
export function pathOf(request: FastifyRequest): string {
  return request.url.split('?', 1)[0] ?? '/';
}

export function sendRefusal(reply: FastifyReply, refusal: HttpRefusal): FastifyReply {
  return reply.code(refusal.statusCode).type('application/json; charset=utf-8').send({ error: refusal.error });
}
