import type { IncomingHttpHeaders } from 'node:http';
import type { Logger } from '../runtime/logger.js';
import type { WebhookPayload } from './payload.js';
import { WEBHOOK_SECRET_HEADER } from './secret.js';
import { eventName, type WebhookEventName } from './event-name.js';

/** What a handler learns about a delivery besides its payload. */
export interface WebhookContext {
  /** The route name the delivery came to; `''` on the bare `/webhooks` route. */
  readonly name: string;
  /** The Hub's `Webhook-Id` header, for de-duplicating retried or replayed deliveries; absent when not sent. */
  readonly webhookId: string | undefined;
  /** `scope:action` of the payload, as in `repo.content:update`. */
  readonly event: WebhookEventName;
  readonly receivedAt: Date;
  /** The request headers, lower-cased, without the secret. */
  readonly headers: Readonly<Record<string, string>>;
  /** A logger bound to this delivery (child of the server's). */
  readonly log: Logger;
}

export interface ContextInput {
  readonly name: string;
  readonly payload: WebhookPayload;
  readonly headers: IncomingHttpHeaders;
  readonly receivedAt: Date;
  /** Makes the delivery's logger, at the first use of `context.log`. */
  readonly log: () => Logger;
}

/** The request headers as a handler sees them: joined, and without the secret. */
function handlerHeaders(raw: IncomingHttpHeaders): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (key === WEBHOOK_SECRET_HEADER || value === undefined) continue;
    headers[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** The headers and the logger are made at their first use: most handlers read neither. */
export function buildContext(input: ContextInput): WebhookContext {
  const webhookId = input.headers['webhook-id'];
  let headers: Record<string, string> | undefined;
  let log: Logger | undefined;
  return {
    name: input.name,
    webhookId: Array.isArray(webhookId) ? webhookId.join(', ') : webhookId,
    event: eventName(input.payload),
    receivedAt: input.receivedAt,
    get headers() {
      return (headers ??= handlerHeaders(input.headers));
    },
    get log() {
      return (log ??= input.log());
    },
  };
}
