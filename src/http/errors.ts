import { type ErrorArgument, type ErrorCode, type ErrorEntry, ERRORS, errorMessage } from '../errors/catalogue.js';

/** A code of the error table (src/errors/catalogue.ts), which the chat service and the receiver share. */
export type HttpErrorCode = ErrorCode;

/** The JSON every error response carries. */
export interface ErrorBody {
  readonly error: string;
  readonly [field: string]: unknown;
}

export interface HttpErrorOptions extends ErrorOptions {
  /** Fill the `%s` marks of the table's message, in order. */
  readonly args?: readonly ErrorArgument[];
  /** Fastify's own status for one of its 4xx. */
  readonly statusCode?: number;
}

/**
 * An error of the chat service: a route throws `httpError(code)`; the app's error handler turns it
 * into JSON with an `error` string, plus the fields docs/specification.md#chat gives some of them.
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  readonly statusCode: number;
  readonly body: ErrorBody;
  /** `Retry-After`, in seconds, when the table gives one. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly code: HttpErrorCode,
    options: HttpErrorOptions = {},
  ) {
    const entry: ErrorEntry = ERRORS[code];
    super(errorMessage(code, options.args), options.cause === undefined ? undefined : { cause: options.cause });
    this.statusCode = options.statusCode ?? entry.statusCode;
    this.body = { error: this.message, ...entry.body };
    this.retryAfterSeconds = entry.retryAfterSeconds;
  }
}

export function httpError(code: HttpErrorCode, options?: HttpErrorOptions): HttpError {
  return new HttpError(code, options);
}
