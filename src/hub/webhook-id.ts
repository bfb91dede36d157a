import type { HubOptions } from './hub-options.js';

/** The params-object form of a call on one webhook: `{ webhookId, ...options }`. */
export type WithWebhookId<T = HubOptions> = { readonly webhookId: string } & T;

/**
 * The two ways to name the webhook, as one params object: positionally, as docs/specification.md#webhooks-on-the-hub and
 * huggingface_hub do (`enableWebhook('abc', { token })`), or inside the object
 * (`enableWebhook({ webhookId: 'abc', token })`). A missing or empty id is refused later, by webhookPath.
 */
export function webhookParams<T extends object>(idOrParams: string | WithWebhookId<T>, rest?: T): WithWebhookId<T> {
  if (typeof idOrParams === 'string') return { ...(rest as T), webhookId: idOrParams };
  return idOrParams;
}
