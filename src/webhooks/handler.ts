import type { WebhookContext } from './context.js';
import type { WebhookPayload } from './payload.js';

/**
 * A webhook handler. Its return value (awaited) is the JSON response body;
 * returning nothing answers `200` with the body `null`, as huggingface_hub does.
 */
export type WebhookHandler = (payload: WebhookPayload, context: WebhookContext) => unknown;
