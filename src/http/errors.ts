/**
 * Every error the chat service answers with, in one table: its code, HTTP
 * status and message (in the manner of fastify's own `FST_ERR_*` errors). A
 * route throws `httpError(code)`; the app's error handler turns it into JSON
 * with an `error` string, plus the fields seed 000 gives some of them.
 */
export const HTTP_ERRORS = {
  NO_MESSAGE: { statusCode: 400, message: 'No message provided' },
  MALFORMED_JSON: { statusCode: 400, message: 'Malformed JSON in request body' },
  BAD_REQUEST: { statusCode: 400, message: 'Bad request' },
  NOT_FOUND: { statusCode: 404, message: 'Not found' },
  BODY_TOO_LARGE: { statusCode: 413, message: 'Request body too large' },
  MESSAGE_TOO_LONG: { statusCode: 413, message: 'Message too long' },
  UNSUPPORTED_MEDIA_TYPE: { statusCode: 415, message: 'Content-Type must be application/json' },
  NOT_INITIALIZED: {
    statusCode: 503,
    message: 'The system is not initialized yet. Please try again in a moment.',
    body: { is_initialized: false, status: 'initializing' },
  },
  MISSING_LLM_KEY: {
    statusCode: 503,
    message: 'The language model API key (LLM_API_KEY) is missing: chat is unavailable.',
    body: { status: 'missing_llm_key', is_initialized: false },
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
} as const satisfies Record<string, HttpErrorEntry>;

interface HttpErrorEntry {
  readonly statusCode: number;
  readonly message: string;
  /** Fields seed 000 adds beside `error`. */
  readonly body?: Readonly<Record<string, string | boolean>>;
}

export type HttpErrorCode = keyof typeof HTTP_ERRORS;

/** The JSON every error response carries. */
export interface ErrorBody {
  readonly error: string;
  readonly [field: string]: unknown;
}

export class HttpError extends Error {
  override readonly name = 'HttpError';
  readonly statusCode: number;
  readonly body: ErrorBody;

  constructor(
    readonly code: HttpErrorCode,
    /** Replaces the table's message when the situation says more (e.g. the limit that was passed). */
    message?: string,
    options?: ErrorOptions & { readonly statusCode?: number },
  ) {
    const entry: HttpErrorEntry = HTTP_ERRORS[code];
    super(message ?? entry.message, options);
    this.statusCode = options?.statusCode ?? entry.statusCode;
    this.body = { error: this.message, ...entry.body };
  }
}

export function httpError(code: HttpErrorCode, message?: string, cause?: unknown): HttpError {
  return new HttpError(code, message, cause === undefined ? undefined : { cause });
}
