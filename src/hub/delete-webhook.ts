import type { HubOptions } from './hub-options.js';
import { hubRequest } from './request.js';
import { webhookParams, type WithWebhookId } from './webhook-id.js';
import { webhookPath } from './webhook-path.js';

/** Deletes a webhook for good. */
export async function deleteWebhook(webhookId: string, options?: HubOptions): Promise<void>;
export async function deleteWebhook(params: WithWebhookId): Promise<void>;
export async function deleteWebhook(idOrParams: string | WithWebhookId, options?: HubOptions): Promise<void> {
  const params = webhookParams('deleteWebhook', idOrParams, options);
  await hubRequest({ method: 'DELETE', path: webhookPath(params.webhookId) }, params);
}
