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
  /** The body's bytes as they came (to forward or store a delivery unchanged). */
  readonly rawBody: Buffer;
  /** A logger bound to this delivery (child of the server's). */
  readonly log: Logger;
}

export interface ContextInput {
  readonly name: string;
  readonly payload: WebhookPayload;
  readonly headers: IncomingHttpHeaders;
  readonly receivedAt: Date;
  readonly rawBody: Buffer;
  /** Makes the delivery's logger, at the first use of `context.log`. */
  readonly log: () => Logger;
}

/** The request headers as a handler (and the journal) sees them: joined, and without the secret. */
export function handlerHeaders(raw: IncomingHttpHeaders): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (key === WEBHOOK_SECRET_HEADER || value === undefined) continue;
    headers[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/**
 * The headers and the logger are made at their first use: most handlers read neither. A class, so that
 * the two lazy getters live once on its prototype: an object literal with getters made two closures and
 * an accessor pair per delivery, which kept the young generation's collections busy under load.
 */
class DeliveryContext implements WebhookContext {
  readonly name: string;
  readonly webhookId: string | undefined;
  readonly event: WebhookEventName;
  readonly receivedAt: Date;
  readonly rawBody: Buffer;
  readonly #input: ContextInput;
  #headers: Record<string, string> | undefined;
  #log: Logger | undefined;

  constructor(input: ContextInput) {
    const webhookId = input.headers['webhook-id'];
    this.name = input.name;
    this.webhookId = Array.isArray(webhookId) ? webhookId.join(', ') : webhookId;
    this.event = eventName(input.payload);
    this.receivedAt = input.receivedAt;
    this.rawBody = input.rawBody;
    this.#input = input;
  }

  get headers(): Readonly<Record<string, string>> {
    return (this.#headers ??= handlerHeaders(this.#input.headers));
  }

  get log(): Logger {
    return (this.#log ??= this.#input.log());
  }
}

export function buildContext(input: ContextInput): WebhookContext {
  return new DeliveryContext(input);
}
