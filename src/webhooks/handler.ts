import type { WebhookContext } from './context.js';
import type { WebhookPayload } from './payload.js';

/**
 * A webhook handler. Its return value (awaited) is the JSON response body;
 * returning nothing answers `200` with the body `null`, as huggingface_hub does.
 * A `WebhookReply` is sent as it is: its status, headers and bytes.
 */
export type WebhookHandler = (payload: WebhookPayload, context: WebhookContext) => unknown;

/** What a handler returns to answer with a status and body of its own (a forwarder passing on another server's answer). */
export class WebhookReply {
  constructor(
    readonly status: number,
    readonly body: string | Buffer,
    readonly headers: Readonly<Record<string, string>> = { 'content-type': 'application/json; charset=utf-8' },
  ) {}
}
