import type { HubOptions } from './hub-options.js';
import { checkOptionNames } from './option-names.js';
import { hubRequest } from './request.js';
import type { Webhook } from './types.js';
import { readWebhookList } from './webhook-json.js';
import { WEBHOOKS_PATH } from './webhook-path.js';

/** Every webhook of the token's user (the hub does not paginate this list). */
export async function listWebhooks(params: HubOptions = {}): Promise<Webhook[]> {
  checkOptionNames('listWebhooks', params);
  return hubRequest({ method: 'GET', path: WEBHOOKS_PATH }, params, readWebhookList);
}
