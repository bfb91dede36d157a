import type { HubOptions } from './hub-options.js';
import { checkOptionNames } from './option-names.js';

/** The params-object form of a call on one webhook: `{ webhookId, ...options }`. */
export type WithWebhookId<T = HubOptions> = { readonly webhookId: string } & T;

/**
 * The two ways to name the webhook, as one params object: positionally, as docs/specification.md#webhooks-on-the-hub and
 * huggingface_hub do (`enableWebhook('abc', { token })`), or inside the object
 * (`enableWebhook({ webhookId: 'abc', token })`). A missing or empty id is refused later, by webhookPath;
 * an option `call` does not take (its `own` fields, the id and the hub options) is refused here.
 */
export function webhookParams<T extends object>(
  call: string,
  idOrParams: string | WithWebhookId<T>,
  rest?: T,
  own: readonly string[] = [],
): WithWebhookId<T> {
  const params = typeof idOrParams === 'string' ? { ...(rest as T), webhookId: idOrParams } : idOrParams;
  checkOptionNames(call, params, ['webhookId', ...own]);
  return params;
}
