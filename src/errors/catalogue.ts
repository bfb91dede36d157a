/**
 * Every error the two Fastify apps answer with, in one table: its code, HTTP status and message (in
 * the manner of fastify's own `FST_ERR_*` errors in its lib/errors.js). A message's `%s` marks are
 * filled in order by the thrower's arguments (the limit that was passed, the path that is unknown),
 * as fastify's `createError` does. The chat service throws `httpError(code)` (src/http/errors.ts),
 * the webhooks receiver a `WebhookDeliveryError(code)` (src/webhooks/errors.ts); both answer JSON
 * with an `error` string, the chat service adding the fields docs/specification.md#chat gives some
 * of its errors (`body`).
 *
 * This module imports nothing: the receiver is the light entry `emotion-hub/webhooks`.
 * test/errors/catalogue.test.ts walks it: every code has a status and a message, and is used;
 * test/errors/docs-tables.test.ts holds the error tables of docs/ to it.
 */
export const ERRORS = {
  // ── the chat service ─────────────────────────────────────────────────────
  NO_MESSAGE: { statusCode: 400, message: 'No message provided' },
  MALFORMED_JSON: { statusCode: 400, message: 'Malformed JSON in request body: %s' },
  /** Fastify's own 4xx (a failed schema, …) keep their status and fastify's words. */
  BAD_REQUEST: { statusCode: 400, message: '%s' },
  MALFORMED_REQUEST: { statusCode: 400, message: 'Malformed HTTP request' },
  NOT_FOUND: { statusCode: 404, message: 'Route %s %s not found' },
  REQUEST_TIMEOUT: { statusCode: 408, message: 'The request took too long to arrive' },
  BODY_TOO_LARGE: { statusCode: 413, message: 'Request body too large' },
  MESSAGE_TOO_LONG: { statusCode: 413, message: 'Message too long: at most %s characters' },
  UNSUPPORTED_MEDIA_TYPE: { statusCode: 415, message: 'Content-Type must be application/json' },
  HEADERS_TOO_LARGE: { statusCode: 431, message: 'Request headers too large' },
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
    retryAfterSeconds: 5,
  },
  CHAT_UNAVAILABLE: {
    statusCode: 503,
    message: 'Chat is unavailable right now: this message changed nothing.',
    // The service is initialized: the commit (the disk, Redis) failed, not the start.
    body: { status: 'error', is_initialized: true },
  },
  SYSTEM_UNREACHABLE: {
    statusCode: 503,
    message: 'Chat is unavailable: the system does not answer.',
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
  // Only a streamed chat can be stopped, so only its `event: error` carries this; the status is for the table.
  CHAT_STOPPED: { statusCode: 409, message: 'The reply was stopped: this message changed nothing.' },
  NOTHING_TO_REDO: { statusCode: 409, message: 'There is no last message to regenerate or edit: send a message first.' },
  // A redo acts on the last exchange: while a reply streams, that would be the one before it.
  REPLY_IN_PROGRESS: {
    statusCode: 409,
    message: 'A reply of this conversation is still being written: wait for it to end (or stop it), then regenerate or edit.',
  },
  TURN_LOST: {
    statusCode: 503,
    message: 'The replica writing this reply stopped before it ended: the message changed nothing. Please send it again.',
  },
  TURN_NOT_FOUND: { statusCode: 404, message: 'No such turn: it ended a while ago, or it is not yours.' },
  HISTORY_UNAVAILABLE: { statusCode: 503, message: 'The conversation cannot be read or forgotten right now. Please try again.' },
  IMPORT_INVALID: { statusCode: 400, message: 'The file cannot be imported: %s. Nothing changed.' },
  // An import appended or replaced under a reply still being written would put that reply after it, or into no conversation.
  IMPORT_DURING_REPLY: {
    statusCode: 409,
    message: 'A reply of this conversation is still being written: wait for it to end (or stop it), then import. Nothing changed.',
  },
  IMPORT_FAILED: { statusCode: 503, message: 'The conversation could not be imported right now. Please try again.' },
  AVATAR_FAILED: {
    statusCode: 500,
    message: 'Failed to get avatar information',
    body: { avatar_shape: 'Circle', status: 'error' },
  },
  STATUS_FAILED: { statusCode: 500, message: 'Failed to get the system status' },
  MOOD_WHY_FAILED: { statusCode: 500, message: 'Failed to explain the mood' },
  PAGE_FAILED: { statusCode: 500, message: 'Failed to render the page' },
  INTERNAL: { statusCode: 500, message: 'Internal server error' },

  // ── the webhooks receiver (the 401 and 403 are huggingface_hub's WebhooksServer's, word for word) ──
  WEBHOOK_SECRET_MISSING: { statusCode: 401, message: 'x-webhook-secret header not set.' },
  WEBHOOK_SECRET_INVALID: { statusCode: 403, message: 'Invalid webhook secret.' },
  WEBHOOK_EMPTY_BODY: { statusCode: 400, message: 'The request body is empty: a webhook delivery is a JSON payload.' },
  WEBHOOK_MALFORMED_BODY: { statusCode: 400, message: 'The request body is not valid JSON.' },
  WEBHOOK_PAYLOAD_UNREADABLE: { statusCode: 400, message: 'The webhook payload is not valid JSON: %s' },
  WEBHOOK_PAYLOAD_MISSING: { statusCode: 400, message: 'WEBHOOK_PAYLOAD is not set: this job was not started by a webhook.' },
  WEBHOOK_NOT_FOUND: { statusCode: 404, message: 'Not found: %s %s.' },
  WEBHOOK_NOT_REGISTERED: { statusCode: 404, message: 'No webhook is registered at %s.' },
  WEBHOOK_BODY_TOO_LARGE: { statusCode: 413, message: 'The request body is larger than the limit of %s bytes.' },
  WEBHOOK_UNSUPPORTED_MEDIA_TYPE: {
    statusCode: 415,
    message: 'Unsupported Content-Type: a webhook delivery is JSON, sent as application/json.',
  },
  WEBHOOK_INVALID_PAYLOAD: { statusCode: 422, message: 'Invalid webhook payload: %s.' },
  WEBHOOK_PAYLOAD_NOT_OBJECT: { statusCode: 422, message: 'The webhook payload must be a JSON object.' },
  WEBHOOK_REPO_TYPE_INVALID: { statusCode: 422, message: 'WEBHOOK_REPO_TYPE must be one of %s, got %s.' },
  WEBHOOK_DEDUP_UNAVAILABLE: {
    statusCode: 503,
    message: 'Cannot tell whether this delivery was handled before (the delivery store is unavailable); try again later.',
  },
  WEBHOOK_HANDLER_FAILED: { statusCode: 500, message: 'The webhook handler %s failed; see the server log.' },
  WEBHOOK_INTERNAL: { statusCode: 500, message: 'Internal server error.' },
  WEBHOOK_FORWARD_FAILED: { statusCode: 502, message: 'The forward target could not be reached: %s: %s' },
  WEBHOOK_EXEC_FAILED: { statusCode: 500, message: 'The command failed: %s.' },
} as const satisfies Record<string, ErrorEntry>;

export interface ErrorEntry {
  readonly statusCode: number;
  /** The message; each `%s` is filled by the thrower's arguments, in order. */
  readonly message: string;
  /** Fields docs/specification.md#chat adds beside `error`. */
  readonly body?: Readonly<Record<string, string | boolean>>;
  /** Sent as `Retry-After`: the answer is the state of the moment, and a retry that late finds it changed. */
  readonly retryAfterSeconds?: number;
}

export type ErrorCode = keyof typeof ERRORS;

/** An argument that fills a `%s` of a message. */
export type ErrorArgument = string | number;

/** The message of `code`, its `%s` filled in order by `args` (a missing argument leaves the mark). */
export function errorMessage(code: ErrorCode, args: readonly ErrorArgument[] = []): string {
  let next = 0;
  return ERRORS[code].message.replace(/%s/g, (mark) => (next < args.length ? String(args[next++]) : mark));
}
