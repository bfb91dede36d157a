// The webhook receiving library's public surface.
export type * from './payload.js';
export type { WebhookContext } from './context.js';
export { WebhookReply, type WebhookHandler } from './handler.js';
export type { DeliveryJournal, JournalEntry } from './journal/entry.js';
export type { WebhookEventName } from './event-name.js';
export type { WebhookDelivery, WebhookEvents, WebhookListener, WebhookWildcardListener } from './delivery-events.js';
export type { LandingPageInfo } from './landing-page.js';
export type { Tunnel, TunnelProvider } from './tunnel.js';
export { localTunnel, DEFAULT_TUNNEL_HOST, TUNNEL_LIFETIME_MS, type LocalTunnelOptions, type Schedule } from './local-tunnel.js';
export { WebhooksServer, type LaunchedWebhooksServer, type RegisteredWebhook } from './server.js';
export type { WebhookDelivered, WebhookRefusal, WebhooksServerOptions, WebhooksUi } from './options.js';
export { defaultWebhooksServer, webhookEndpoint } from './default-server.js';
export {
  WebhookDeliveryError,
  WebhookPayloadError,
  WebhookRegistrationError,
  WebhookSecretError,
  WebhookTunnelError,
} from './errors.js';
export { WebhookPayloadSchema } from './payload-schema.js';
export { parseWebhookPayload, validateWebhookPayload } from './validate-payload.js';
export { INVALID_SECRET_MESSAGE, MISSING_SECRET_MESSAGE, WEBHOOK_SECRET_HEADER, verifyWebhookSecret } from './secret.js';
export { readJobWebhook, type JobWebhook, type ReadJobWebhookOptions } from './job-payload.js';
export { sendTestDelivery, type TestDeliveryOptions, type TestDeliveryResponse } from './send-test-delivery.js';
export { SAMPLE_EVENT_NAMES, SAMPLE_EVENTS, SAMPLE_SCOPES, samplePayload, type SampleScope } from './sample-payloads.js';
