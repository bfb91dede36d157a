import type { HubOptions } from './hub-options.js';
import { hubRequest } from './request.js';
import type { Webhook } from './types.js';
import { readWebhookEnvelope } from './webhook-json.js';
import { webhookPath } from './webhook-path.js';

export async function getWebhook(params: { readonly webhookId: string } & HubOptions): Promise<Webhook> {
  return hubRequest({ method: 'GET', path: webhookPath(params.webhookId) }, params, readWebhookEnvelope);
}
