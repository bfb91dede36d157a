import type { HubOptions } from './hub-options.js';
import { hubRequest } from './request.js';
import type { Webhook } from './types.js';
import { readWebhookEnvelope } from './webhook-json.js';
import { webhookParams, type WithWebhookId } from './webhook-id.js';
import { webhookPath } from './webhook-path.js';

/** Resumes deliveries of a disabled webhook. */
export async function enableWebhook(webhookId: string, options?: HubOptions): Promise<Webhook>;
export async function enableWebhook(params: WithWebhookId): Promise<Webhook>;
export async function enableWebhook(idOrParams: string | WithWebhookId, options?: HubOptions): Promise<Webhook> {
  const params = webhookParams('enableWebhook', idOrParams, options);
  return hubRequest({ method: 'POST', path: webhookPath(params.webhookId, 'enable') }, params, readWebhookEnvelope);
}
