import { WebhookInputError } from './errors.js';

export const WEBHOOKS_PATH = '/api/settings/webhooks';

/** The route of one webhook; the id is encoded so that no input can reach another route. */
export function webhookPath(webhookId: string, action?: 'enable' | 'disable'): string {
  if (typeof webhookId !== 'string' || webhookId.trim() === '') throw new WebhookInputError('A webhook id is required.');
  const base = `${WEBHOOKS_PATH}/${encodeURIComponent(webhookId)}`;
  return action ? `${base}/${action}` : base;
}
