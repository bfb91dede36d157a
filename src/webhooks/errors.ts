import { type ErrorArgument, type ErrorCode, ERRORS, errorMessage } from '../errors/catalogue.js';

/** The receiver's codes in the error table the two apps share. */
export type WebhookErrorCode = Extract<ErrorCode, `WEBHOOK_${string}`>;

/**
 * A delivery the receiver refuses, by its code in the error table. `statusCode` is the HTTP status
 * the server answers with, and the job helper throws the same errors, so both sides of a webhook
 * (URL or job) fail alike.
 */
export class WebhookDeliveryError extends Error {
  override readonly name: string = 'WebhookDeliveryError';
  readonly statusCode: number;

  constructor(
    readonly code: WebhookErrorCode,
    /** Fill the `%s` marks of the table's message (the path, the field that is wrong). */
    ...args: readonly ErrorArgument[]
  ) {
    super(errorMessage(code, args));
    this.statusCode = ERRORS[code].statusCode;
  }
}

/** The body is not JSON (400) or not a Hub payload (422). */
export class WebhookPayloadError extends WebhookDeliveryError {
  override readonly name: string = 'WebhookPayloadError';
}

/** The shared secret is missing (401) or wrong (403). */
export class WebhookSecretError extends WebhookDeliveryError {
  override readonly name: string = 'WebhookSecretError';
}

/** A handler cannot be registered: no usable name, or the name is taken. */
export class WebhookRegistrationError extends Error {
  override readonly name = 'WebhookRegistrationError';
}

/**
 * The public URL asked for (`share`, `tunnel`) did not open; the local server serves on at `localUrl`.
 * `launch()` rejects with it, and `server.close()` stops the local server.
 */
export class WebhookTunnelError extends Error {
  constructor(
    readonly localUrl: string,
    cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'WebhookTunnelError';
  }
}
