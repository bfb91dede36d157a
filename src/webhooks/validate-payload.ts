import { Compile } from 'typebox/compile';
import { WebhookPayloadError } from './errors.js';
import type { WebhookPayload } from './payload.js';
import { WebhookPayloadSchema } from './payload-schema.js';
import { describeSchemaErrors } from './validation-message.js';

// Compiled at the first delivery, not at import: the schema compiles to code, which takes a while.
let validator: ReturnType<typeof Compile<typeof WebhookPayloadSchema>> | undefined;

/** Returns `value` typed as a Hub payload, or throws a 422 {@link WebhookPayloadError} naming what is wrong. */
export function validateWebhookPayload(value: unknown): WebhookPayload {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new WebhookPayloadError('WEBHOOK_INVALID_PAYLOAD', 'The webhook payload must be a JSON object.');
  }
  validator ??= Compile(WebhookPayloadSchema);
  if (!validator.Check(value)) {
    throw new WebhookPayloadError('WEBHOOK_INVALID_PAYLOAD', `Invalid webhook payload: ${describeSchemaErrors(validator.Errors(value))}.`);
  }
  return value as WebhookPayload;
}

/** Parses JSON text (400 when malformed) and validates it as a Hub payload (422). */
export function parseWebhookPayload(text: string): WebhookPayload {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new WebhookPayloadError('WEBHOOK_PAYLOAD_UNREADABLE', `The webhook payload is not valid JSON: ${(error as Error).message}`);
  }
  return validateWebhookPayload(value);
}
