import type { HubOptions } from './hub-options.js';
import { hubRequest } from './request.js';
import type { Webhook } from './types.js';
import { readWebhookEnvelope } from './webhook-json.js';
import { webhookParams, type WithWebhookId } from './webhook-id.js';
import { webhookPath } from './webhook-path.js';

/** One webhook, by id. */
export async function getWebhook(webhookId: string, options?: HubOptions): Promise<Webhook>;
export async function getWebhook(params: WithWebhookId): Promise<Webhook>;
export async function getWebhook(idOrParams: string | WithWebhookId, options?: HubOptions): Promise<Webhook> {
  const params = webhookParams('getWebhook', idOrParams, options);
  return hubRequest({ method: 'GET', path: webhookPath(params.webhookId) }, params, readWebhookEnvelope);
}
