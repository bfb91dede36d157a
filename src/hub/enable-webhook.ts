import type { HubOptions } from './hub-options.js';
import { hubRequest } from './request.js';
import type { Webhook } from './types.js';
import { readWebhookEnvelope } from './webhook-json.js';
import { webhookPath } from './webhook-path.js';

/** Resumes deliveries of a disabled webhook. */
export async function enableWebhook(params: { readonly webhookId: string } & HubOptions): Promise<Webhook> {
  return hubRequest({ method: 'POST', path: webhookPath(params.webhookId, 'enable') }, params, readWebhookEnvelope);
}
