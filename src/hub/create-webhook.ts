import type { HubOptions } from './hub-options.js';
import { checkOptionNames } from './option-names.js';
import { hubRequest } from './request.js';
import type { Webhook } from './types.js';
import { CREATE_INPUT_NAMES, createWebhookBody, type CreateWebhookInput } from './webhook-input.js';
import { readWebhookEnvelope } from './webhook-json.js';
import { WEBHOOKS_PATH } from './webhook-path.js';

/** Creates a webhook that calls `url`, or triggers the job `jobId`, when a watched item changes. */
export async function createWebhook(params: CreateWebhookInput & HubOptions): Promise<Webhook> {
  checkOptionNames('createWebhook', params, CREATE_INPUT_NAMES);
  const body = createWebhookBody(params);
  return hubRequest({ method: 'POST', path: WEBHOOKS_PATH, body }, params, readWebhookEnvelope);
}
