// The hub webhooks client: one hub call per file, all re-exported from the package entry. Every call
// takes its token, hub URL and fetch from its caller (HubOptions): nothing here reads the environment.
export { createWebhook } from './create-webhook.js';
export { listWebhooks } from './list-webhooks.js';
export { getWebhook } from './get-webhook.js';
export { updateWebhook } from './update-webhook.js';
export { enableWebhook } from './enable-webhook.js';
export { disableWebhook } from './disable-webhook.js';
export { deleteWebhook } from './delete-webhook.js';
export { HubApiError, HubConfigError, HubConnectionError, HubOfflineError, WebhookInputError } from './errors.js';
export type { HubOptions } from './hub-options.js';
export type { WithWebhookId } from './webhook-id.js';
export type { CreateWebhookInput, UpdateWebhookInput } from './webhook-input.js';
export { WATCHED_TYPES, WEBHOOK_DOMAINS, type WatchedItem, type WatchedType, type Webhook, type WebhookDomain } from './types.js';
