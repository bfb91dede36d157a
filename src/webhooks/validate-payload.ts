import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';
import { WebhookPayloadError } from './errors.js';
import type { WebhookPayload } from './payload.js';
import { WebhookPayloadSchema } from './payload-schema.js';
import { describeSchemaErrors } from './validation-message.js';

// Ajv is loaded and the schema compiled at the first delivery, not at import, so that
// `import 'emotion-hub/webhooks'` stays light (Ajv is some 70 modules; the receiving server's
// Fastify has loaded them by then anyway). `require`, since validation is synchronous and Ajv is CommonJS.
let validator: ValidateFunction<WebhookPayload> | undefined;

function payloadValidator(): ValidateFunction<WebhookPayload> {
  if (validator === undefined) {
    const { Ajv } = createRequire(import.meta.url)('ajv') as typeof import('ajv');
    // Every problem, not only the first; `verbose` puts the schema beside each, so that a nullable
    // field's message can say "or null". No coercion, no default: the payload is returned as it came.
    // `validateSchema: false`: checking our fixed schema against the meta-schema would compile that
    // too, doubling the first delivery's wait; its types (JSONSchemaType) and Ajv's strict mode,
    // which refuses unknown keywords, check it already.
    validator = new Ajv({ allErrors: true, verbose: true, validateSchema: false }).compile<WebhookPayload>(WebhookPayloadSchema);
  }
  return validator;
}

/** Returns `value` typed as a Hub payload, or throws a 422 {@link WebhookPayloadError} naming what is wrong. */
export function validateWebhookPayload(value: unknown): WebhookPayload {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new WebhookPayloadError('WEBHOOK_PAYLOAD_NOT_OBJECT');
  }
  const validate = payloadValidator();
  if (!validate(value)) {
    throw new WebhookPayloadError('WEBHOOK_INVALID_PAYLOAD', describeSchemaErrors(validate.errors ?? []));
  }
  return value;
}

/** Parses JSON text (400 when malformed) and validates it as a Hub payload (422). */
export function parseWebhookPayload(text: string): WebhookPayload {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new WebhookPayloadError('WEBHOOK_PAYLOAD_UNREADABLE', (error as Error).message);
  }
  return validateWebhookPayload(value);
}
