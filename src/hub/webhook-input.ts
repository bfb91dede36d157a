import { WebhookInputError } from './errors.js';
import { WATCHED_TYPES, WEBHOOK_DOMAINS, type WatchedItem, type WebhookDomain } from './types.js';

// Pure checks and request bodies for create and update: bad input fails here, before any request.

export interface CreateWebhookInput {
  /** Where the hub POSTs payloads. Give this or `jobId`, not both. */
  readonly url?: string | undefined;
  /** A job to trigger instead of calling a URL (the hub's `jobSourceId`). */
  readonly jobId?: string | undefined;
  readonly watched: readonly WatchedItem[];
  /** Omitted: the hub's default (all domains). */
  readonly domains?: readonly WebhookDomain[] | undefined;
  readonly secret?: string | undefined;
}

/** The fields of createWebhook's params beside the hub options. */
export const CREATE_INPUT_NAMES = ['url', 'jobId', 'watched', 'domains', 'secret'] as const satisfies readonly (keyof CreateWebhookInput)[];

export interface UpdateWebhookInput {
  readonly url?: string | undefined;
  /** Replaces the whole watched list. */
  readonly watched?: readonly WatchedItem[] | undefined;
  readonly domains?: readonly WebhookDomain[] | undefined;
  readonly secret?: string | undefined;
}

/** The fields of updateWebhook's params beside the webhook id and the hub options. */
export const UPDATE_INPUT_NAMES = ['url', 'watched', 'domains', 'secret'] as const satisfies readonly (keyof UpdateWebhookInput)[];

function checkUrl(url: string): string {
  let protocol = '';
  try {
    protocol = new URL(url).protocol;
  } catch {
    // reported below
  }
  if (protocol !== 'http:' && protocol !== 'https:') throw new WebhookInputError(`The webhook URL must be an http(s) URL, got "${url}".`);
  return url;
}

export function checkWatched(watched: readonly WatchedItem[]): WatchedItem[] {
  if (!Array.isArray(watched) || watched.length === 0) {
    throw new WebhookInputError(`Watch at least one item: a {type, name} with type ${WATCHED_TYPES.join(', ')}.`);
  }
  return watched.map((item) => {
    if (!WATCHED_TYPES.includes(item?.type)) {
      throw new WebhookInputError(`Invalid watched type "${String(item?.type)}". Valid types: ${WATCHED_TYPES.join(', ')}.`);
    }
    if (typeof item.name !== 'string' || item.name.trim() === '') throw new WebhookInputError(`A watched ${item.type} needs a name.`);
    return { type: item.type, name: item.name };
  });
}

function checkDomains(domains: readonly WebhookDomain[]): WebhookDomain[] {
  for (const domain of domains) {
    if (!WEBHOOK_DOMAINS.includes(domain)) {
      throw new WebhookInputError(`Invalid domain "${String(domain)}". Valid domains: ${WEBHOOK_DOMAINS.join(', ')}.`);
    }
  }
  return [...new Set(domains)];
}

function checkSecret(secret: string): string {
  // The hub sends the secret as an HTTP header, which carries ASCII only.
  if (!/^[\x20-\x7e]*$/.test(secret)) throw new WebhookInputError('The webhook secret must be printable ASCII.');
  return secret;
}

/** The POST /api/settings/webhooks body. */
export function createWebhookBody(input: CreateWebhookInput): Record<string, unknown> {
  if (input.url !== undefined && input.jobId !== undefined) throw new WebhookInputError('Set `url` or `jobId`, not both.');
  if (input.url === undefined && input.jobId === undefined) {
    throw new WebhookInputError('Missing target: set `url` (the hub POSTs payloads there) or `jobId` (the hub triggers that job).');
  }
  if (input.jobId !== undefined && input.jobId.trim() === '') throw new WebhookInputError('The job id is empty.');
  return {
    watched: checkWatched(input.watched),
    ...(input.domains !== undefined && { domains: checkDomains(input.domains) }),
    ...(input.secret !== undefined && { secret: checkSecret(input.secret) }),
    ...(input.url !== undefined ? { url: checkUrl(input.url) } : { jobSourceId: input.jobId }),
  };
}

/**
 * The checked changes of an update. The hub's clients always send `watched` on update, so when it is
 * not being changed the caller adds the current list (see updateWebhook).
 */
export function updateWebhookChanges(input: UpdateWebhookInput): Record<string, unknown> & { watched?: WatchedItem[] } {
  return {
    ...(input.watched !== undefined && { watched: checkWatched(input.watched) }),
    ...(input.url !== undefined && { url: checkUrl(input.url) }),
    ...(input.domains !== undefined && { domains: checkDomains(input.domains) }),
    ...(input.secret !== undefined && { secret: checkSecret(input.secret) }),
  };
}
