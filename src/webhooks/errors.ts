/**
 * A delivery the receiver refuses. `statusCode` is the HTTP status the server
 * answers with, and the job helper throws the same errors, so both sides of a
 * webhook (URL or job) fail alike.
 */
export class WebhookDeliveryError extends Error {
  readonly statusCode: number;

  constructor(statusCode: number, message: string) {
    super(message);
    this.name = new.target.name;
    this.statusCode = statusCode;
  }
}

/** The body is not JSON (400) or not a Hub payload (422). */
export class WebhookPayloadError extends WebhookDeliveryError {}

/** The shared secret is missing (401) or wrong (403). */
export class WebhookSecretError extends WebhookDeliveryError {}

/** A handler cannot be registered: no usable name, or the name is taken. */
export class WebhookRegistrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookRegistrationError';
  }
}
