import { WebhookRegistrationError } from './errors.js';

/** Every webhook route lives under this prefix, as in huggingface_hub. */
export const WEBHOOKS_PREFIX = '/webhooks';

// URL-safe characters only, so a route's printed URL is the URL to paste on the Hub.
const SEGMENT = /^[A-Za-z0-9_$~.-]+$/;

/**
 * The route name of a handler: the explicit name without its surrounding
 * slashes (`'/say_hello'` → `say_hello`), else the function's own name.
 */
export function routeName(explicit: string | undefined, handler: { readonly name: string }): string {
  const name = (explicit ?? handler.name).replace(/^\/+|\/+$/g, '');
  if (name === '') {
    throw new WebhookRegistrationError(
      explicit === undefined
        ? "Cannot name the webhook route: the handler is an anonymous function. Use a named function, or give a name: addWebhook('/my_webhook', handler)."
        : `Invalid webhook name ${JSON.stringify(explicit)}: it is empty.`,
    );
  }
  const bad = name.split('/').find((segment) => !SEGMENT.test(segment) || segment === '.' || segment === '..');
  if (bad !== undefined) {
    throw new WebhookRegistrationError(
      `Invalid webhook name ${JSON.stringify(name)}: use letters, digits and _ $ ~ . - between slashes` +
        (explicit === undefined ? ", or give a name: addWebhook('/my_webhook', handler)." : '.'),
    );
  }
  return name;
}

export function routePath(name: string): string {
  return `${WEBHOOKS_PREFIX}/${name}`;
}
