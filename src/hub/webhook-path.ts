import { WebhookInputError } from './errors.js';

export const WEBHOOKS_PATH = '/api/settings/webhooks';

/** The route of one webhook; the id is encoded so that no input can reach another route. */
export function webhookPath(webhookId: string, action?: 'enable' | 'disable'): string {
  if (typeof webhookId !== 'string' || webhookId.trim() === '')
    throw new WebhookInputError(
      "A webhook id is required, positionally or as `webhookId`: enableWebhook('abc', { token }) or enableWebhook({ webhookId: 'abc', token }).",
    );
  // URLs resolve `.` and `..` segments (escaped or not) before sending: `..` would reach /api/settings.
  if (webhookId === '.' || webhookId === '..') throw new WebhookInputError(`Invalid webhook id "${webhookId}".`);
  const base = `${WEBHOOKS_PATH}/${encodeURIComponent(webhookId)}`;
  return action ? `${base}/${action}` : base;
}
