import type { HubOptions } from './hub-options.js';
import { hubRequest } from './request.js';
import type { Webhook } from './types.js';
import { UPDATE_INPUT_NAMES, updateWebhookChanges, type UpdateWebhookInput } from './webhook-input.js';
import { readWebhookEnvelope } from './webhook-json.js';
import { webhookParams, type WithWebhookId } from './webhook-id.js';
import { webhookPath } from './webhook-path.js';

/**
 * Changes only the given fields. The hub's update route takes the watched list in every request
 * (its Python client sends `[]` when the caller leaves it out), so when `watched` is not given the
 * current list is read first and sent back unchanged: leaving it out never empties it.
 */
export async function updateWebhook(webhookId: string, changes: UpdateWebhookInput & HubOptions): Promise<Webhook>;
export async function updateWebhook(params: WithWebhookId<UpdateWebhookInput & HubOptions>): Promise<Webhook>;
export async function updateWebhook(
  idOrParams: string | WithWebhookId<UpdateWebhookInput & HubOptions>,
  changes?: UpdateWebhookInput & HubOptions,
): Promise<Webhook> {
  const params = webhookParams('updateWebhook', idOrParams, changes, UPDATE_INPUT_NAMES);
  const path = webhookPath(params.webhookId);
  const body = updateWebhookChanges(params);
  const watched = body.watched ?? (await hubRequest({ method: 'GET', path }, params, readWebhookEnvelope)).watched;
  return hubRequest({ method: 'POST', path, body: { ...body, watched } }, params, readWebhookEnvelope);
}
