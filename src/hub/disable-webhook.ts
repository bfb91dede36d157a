import type { HubOptions } from './hub-options.js';
import { hubRequest } from './request.js';
import type { Webhook } from './types.js';
import { readWebhookEnvelope } from './webhook-json.js';
import { webhookParams, type WithWebhookId } from './webhook-id.js';
import { webhookPath } from './webhook-path.js';

/** Stops deliveries but keeps the webhook, so that it can be enabled again. */
export async function disableWebhook(webhookId: string, options?: HubOptions): Promise<Webhook>;
export async function disableWebhook(params: WithWebhookId): Promise<Webhook>;
export async function disableWebhook(idOrParams: string | WithWebhookId, options?: HubOptions): Promise<Webhook> {
  const params = webhookParams('disableWebhook', idOrParams, options);
  return hubRequest({ method: 'POST', path: webhookPath(params.webhookId, 'disable') }, params, readWebhookEnvelope);
}
