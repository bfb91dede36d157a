import type { HubOptions } from './hub-options.js';
import { hubRequest } from './request.js';
import { webhookPath } from './webhook-path.js';

/** Deletes a webhook for good. */
export async function deleteWebhook(params: { readonly webhookId: string } & HubOptions): Promise<void> {
  await hubRequest({ method: 'DELETE', path: webhookPath(params.webhookId) }, params);
}
