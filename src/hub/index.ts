// The hub webhooks client: one hub call per file, all re-exported from the package entry.
export { createWebhook } from './create-webhook.js';
export { listWebhooks } from './list-webhooks.js';
export { getWebhook } from './get-webhook.js';
export { updateWebhook } from './update-webhook.js';
export { enableWebhook } from './enable-webhook.js';
export { disableWebhook } from './disable-webhook.js';
export { deleteWebhook } from './delete-webhook.js';
export { HubApiError, HubConfigError, HubConnectionError, HubOfflineError, WebhookInputError } from './errors.js';
export { DEFAULT_ENDPOINT, resolveEndpoint } from './endpoint.js';
export { resolveToken, tokenFilePath } from './token.js';
export { hubUserAgent } from './user-agent.js';
export type { HubOptions } from './hub-options.js';
export type { WithWebhookId } from './webhook-id.js';
export type { CreateWebhookInput, UpdateWebhookInput } from './webhook-input.js';
export { WATCHED_TYPES, WEBHOOK_DOMAINS, type WatchedItem, type WatchedType, type Webhook, type WebhookDomain } from './types.js';
