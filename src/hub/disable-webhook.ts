import type { HubOptions } from './hub-options.js';
import { hubRequest } from './request.js';
import type { Webhook } from './types.js';
import { readWebhookEnvelope } from './webhook-json.js';
import { webhookPath } from './webhook-path.js';

/** Stops deliveries but keeps the webhook, so that it can be enabled again. */
export async function disableWebhook(params: { readonly webhookId: string } & HubOptions): Promise<Webhook> {
  return hubRequest({ method: 'POST', path: webhookPath(params.webhookId, 'disable') }, params, readWebhookEnvelope);
}
