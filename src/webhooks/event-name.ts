import type { WebhookAction, WebhookPayload, WebhookScope } from './payload.js';

/** `scope:action`, the key deliveries are emitted under, e.g. `repo.content:update`. */
export type WebhookEventName = `${WebhookScope}:${WebhookAction}`;

export function eventName(payload: WebhookPayload): WebhookEventName {
  return `${payload.event.scope}:${payload.event.action}`;
}
