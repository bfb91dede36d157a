import { HUB_WEBHOOKS_SETTINGS_URL } from './landing-page.js';

/** What huggingface_hub prints about the secret at startup, adapted to this library's option names. */
export function secretMessages(secretSet: boolean): string[] {
  if (secretSet) return ['Webhook secret is correctly defined.'];
  return [
    'Webhook secret is not defined. This means your webhook endpoints will be open to everyone.',
    "To add a secret, set `WEBHOOK_SECRET` as environment variable or pass it at initialization: \n\t`new WebhooksServer({ webhookSecret: 'my_secret' })`",
    'For more details about webhook secrets, please refer to https://huggingface.co/docs/hub/webhooks#webhook-secret.',
  ];
}

/** The lines printed once the server listens, in huggingface_hub's words. */
export function readyMessages(localUrl: string, publicUrl: string | undefined, routeUrls: readonly string[], expiresAt?: Date): string[] {
  return [
    `Running on local URL:  ${localUrl}`,
    ...(publicUrl === undefined ? [] : [`Running on public URL: ${publicUrl}`]),
    ...(expiresAt === undefined ? [] : [`The public URL expires at ${expiresAt.toISOString()}; it closes itself then.`]),
    '',
    'Webhooks are correctly setup and ready to use:',
    ...routeUrls.map((url) => `  - POST ${url}`),
    `Go to ${HUB_WEBHOOKS_SETTINGS_URL} to setup your webhooks.`,
  ];
}
