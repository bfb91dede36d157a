import type { Webhook } from '../hub/types.js';
import { formatFields, formatTable } from './table.js';

// How webhooks are shown. Secrets never appear unless the user asked for them.

/** The JSON form: the webhook without its secret, plus whether it has one. */
export function webhookJson(webhook: Webhook, showSecret = false): Record<string, unknown> {
  const { secret, ...rest } = webhook;
  return showSecret ? { ...webhook } : { ...rest, hasSecret: secret !== undefined && secret !== '' };
}

const status = (webhook: Webhook): string => (webhook.disabled ? 'disabled' : 'enabled');
const watchedText = (webhook: Webhook): string => webhook.watched.map((item) => `${item.type}:${item.name}`).join(', ');
const target = (webhook: Webhook): string => webhook.url ?? '(job)';

export function webhookTable(webhooks: readonly Webhook[]): string {
  return formatTable(
    ['ID', 'URL', 'STATUS', 'DOMAINS', 'WATCHED'],
    webhooks.map((webhook) => [webhook.id, target(webhook), status(webhook), webhook.domains.join(', '), watchedText(webhook)]),
  );
}

export function webhookDetails(webhook: Webhook, showSecret = false): string {
  const secret =
    webhook.secret === undefined || webhook.secret === ''
      ? '(none)'
      : showSecret
        ? webhook.secret
        : '(set, hidden: pass --show-secret to print it)';
  return formatFields([
    ['id', webhook.id],
    ['status', status(webhook)],
    webhook.job ? ['job', JSON.stringify(webhook.job)] : ['url', target(webhook)],
    ['watched', watchedText(webhook)],
    ['domains', webhook.domains.join(', ') || '(none)'],
    ['secret', secret],
  ]);
}
