import type { WebhookPayload } from '../../webhooks/payload.js';

/**
 * The line `listen` prints per delivery: time, `scope:action`, repository, the target's status, and the
 * milliseconds as the journal records them (to a tenth, from the request's first byte to the answer).
 */
export function deliveryLine(receivedAt: Date, payload: WebhookPayload, status: number, ms: number): string {
  const time = receivedAt.toISOString().slice(11, 19);
  return `${time}  ${payload.event.scope}:${payload.event.action}  ${payload.repo.type} ${payload.repo.name}  → ${status}  ${ms} ms`;
}
