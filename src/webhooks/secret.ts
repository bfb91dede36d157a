import { hash, timingSafeEqual } from 'node:crypto';
import { ERRORS } from '../errors/catalogue.js';
import { WebhookSecretError } from './errors.js';

/** The header the Hub sends the webhook's secret in (a plain shared secret, not a signature). */
export const WEBHOOK_SECRET_HEADER = 'x-webhook-secret';

/** The Hub's own answers (huggingface_hub's WebhooksServer), word for word: rows of the error table. */
export const MISSING_SECRET_MESSAGE = ERRORS.WEBHOOK_SECRET_MISSING.message;
export const INVALID_SECRET_MESSAGE = ERRORS.WEBHOOK_SECRET_INVALID.message;

/**
 * Throws a 401 when `given` is absent and a 403 when it differs from `expected`.
 * Both sides are hashed first so that `timingSafeEqual` compares equal lengths
 * and the time taken reveals neither the secret nor its length.
 */
export function verifyWebhookSecret(given: string | undefined, expected: string): void {
  secretVerifier(expected)(given);
}

/** `verifyWebhookSecret` against one expected secret, its digest computed once rather than per request. */
export function secretVerifier(expected: string): (given: string | undefined) => void {
  const expectedDigest = digest(expected);
  return (given) => {
    if (given === undefined) throw new WebhookSecretError('WEBHOOK_SECRET_MISSING');
    if (!timingSafeEqual(digest(given), expectedDigest)) throw new WebhookSecretError('WEBHOOK_SECRET_INVALID');
  };
}

/** One-shot `hash` rather than a `Hash` object per request: the objects showed as garbage collection under load. */
function digest(value: string): Buffer {
  return hash('sha256', value, 'buffer');
}
