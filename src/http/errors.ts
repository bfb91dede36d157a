import { ERRORS, type ErrorCode, type ErrorEntry } from '../errors/catalogue.js';

/** A code of the error table (src/errors/catalogue.ts), which the chat service and the receiver share. */
export type HttpErrorCode = ErrorCode;

/** The JSON every error response carries. */
export interface ErrorBody {
  readonly error: string;
  readonly [field: string]: unknown;
}

/**
 * An error of the chat service: a route throws `httpError(code)`; the app's error handler turns it
 * into JSON with an `error` string, plus the fields seed 000 gives some of them.
 */
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
    const entry: ErrorEntry = ERRORS[code];
    super(message ?? entry.message, options);
    this.statusCode = options?.statusCode ?? entry.statusCode;
    this.body = { error: this.message, ...entry.body };
  }
}

export function httpError(code: HttpErrorCode, message?: string, cause?: unknown): HttpError {
  return new HttpError(code, message, cause === undefined ? undefined : { cause });
}
