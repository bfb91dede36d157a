/**
 * Every error the two Fastify apps answer with, in one table: its code, HTTP status and message (in
 * the manner of fastify's own `FST_ERR_*` errors in its lib/errors.js). The chat service throws
 * `httpError(code)` (src/http/errors.ts), the webhooks receiver a `WebhookDeliveryError(code)`
 * (src/webhooks/errors.ts); both answer JSON with an `error` string, the chat service adding the
 * fields seed 000 gives some of its errors (`body`).
 *
 * This module imports nothing: the receiver is the light entry `emotion-hub/webhooks`.
 * test/errors/catalogue.test.ts walks it: every code has a status and a message, and is used.
 */
export const ERRORS = {
  // ── the chat service ─────────────────────────────────────────────────────
  NO_MESSAGE: { statusCode: 400, message: 'No message provided' },
  MALFORMED_JSON: { statusCode: 400, message: 'Malformed JSON in request body' },
  BAD_REQUEST: { statusCode: 400, message: 'Bad request' },
  NOT_FOUND: { statusCode: 404, message: 'Not found' },
  BODY_TOO_LARGE: { statusCode: 413, message: 'Request body too large' },
  MESSAGE_TOO_LONG: { statusCode: 413, message: 'Message too long' },
  UNSUPPORTED_MEDIA_TYPE: { statusCode: 415, message: 'Content-Type must be application/json' },
  NOT_INITIALIZED: {
    statusCode: 503,
    message: 'The system is not initialized yet: it is still initializing. Please try again in a moment.',
    body: { is_initialized: false, status: 'initializing' },
  },
  MISSING_LLM_KEY: {
    statusCode: 503,
    message: 'The language model API key (LLM_API_KEY) is missing, so chat is unavailable.',
    body: { status: 'missing_llm_key', is_initialized: false },
  },
  SYSTEM_FAILED: {
    statusCode: 503,
    message: 'The system failed and is shutting down: chat is unavailable.',
    body: { status: 'error', is_initialized: false },
  },
  CHAT_UNAVAILABLE: {
    statusCode: 503,
    message: 'Chat is unavailable right now: this message changed nothing.',
    body: { status: 'error', is_initialized: false },
  },
  PROVIDER_FAILED: {
    statusCode: 502,
    message: 'The language model failed to produce a reply: this message changed nothing.',
    body: { status: 'error' },
  },
  PROVIDER_TIMEOUT: {
    statusCode: 504,
    message: 'The language model took too long to reply: this message changed nothing.',
    body: { status: 'error' },
  },
  CHAT_TIMEOUT: {
    statusCode: 504,
    message: 'The reply took too long. Please try again.',
    body: { status: 'error' },
  },
  AVATAR_FAILED: {
    statusCode: 500,
    message: 'Failed to get avatar information',
    body: { avatar_shape: 'Circle', status: 'error' },
  },
  STATUS_FAILED: { statusCode: 500, message: 'Failed to get the system status' },
  PAGE_FAILED: { statusCode: 500, message: 'Failed to render the page' },
  INTERNAL: { statusCode: 500, message: 'Internal server error' },

  // ── the webhooks receiver (the 401 and 403 are huggingface_hub's WebhooksServer's, word for word) ──
  WEBHOOK_SECRET_MISSING: { statusCode: 401, message: 'x-webhook-secret header not set.' },
  WEBHOOK_SECRET_INVALID: { statusCode: 403, message: 'Invalid webhook secret.' },
  WEBHOOK_EMPTY_BODY: { statusCode: 400, message: 'The request body is empty: a webhook delivery is a JSON payload.' },
  WEBHOOK_MALFORMED_BODY: { statusCode: 400, message: 'The request body is not valid JSON.' },
  WEBHOOK_PAYLOAD_UNREADABLE: { statusCode: 400, message: 'The webhook payload is missing or not valid JSON.' },
  WEBHOOK_NOT_FOUND: { statusCode: 404, message: 'Not found.' },
  WEBHOOK_NOT_REGISTERED: { statusCode: 404, message: 'No webhook is registered at this path.' },
  WEBHOOK_BODY_TOO_LARGE: { statusCode: 413, message: 'The request body is larger than the limit.' },
  WEBHOOK_UNSUPPORTED_MEDIA_TYPE: {
    statusCode: 415,
    message: 'Unsupported Content-Type: a webhook delivery is JSON, sent as application/json.',
  },
  WEBHOOK_INVALID_PAYLOAD: { statusCode: 422, message: 'Invalid webhook payload.' },
  WEBHOOK_DEDUP_UNAVAILABLE: {
    statusCode: 503,
    message: 'Cannot tell whether this delivery was handled before (the delivery store is unavailable); try again later.',
  },
  WEBHOOK_INTERNAL: { statusCode: 500, message: 'Internal server error.' },
  WEBHOOK_FORWARD_FAILED: { statusCode: 502, message: 'The forward target could not be reached.' },
  WEBHOOK_EXEC_FAILED: { statusCode: 500, message: 'The command failed.' },
} as const satisfies Record<string, ErrorEntry>;

export interface ErrorEntry {
  readonly statusCode: number;
  /** The default message; a thrower may say more (the limit that was passed, the field that is wrong). */
  readonly message: string;
  /** Fields seed 000 adds beside `error`. */
  readonly body?: Readonly<Record<string, string | boolean>>;
}

export type ErrorCode = keyof typeof ERRORS;
