import type { Webhook } from './types.js';

// Readers for the hub's webhook JSON. Required keys are checked (a missing one would surface later as
// a confusing `undefined`); unknown keys are ignored, as the hub's own clients do.

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function optionalString(data: Record<string, unknown>, key: string): string | undefined {
  const value = data[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new TypeError(`webhook "${key}" is not a string`);
  return value;
}

export function readWebhook(data: unknown): Webhook {
  if (!isObject(data)) throw new TypeError('a webhook is not an object');
  if (typeof data.id !== 'string' || data.id === '') throw new TypeError('webhook without an "id"');
  const { watched, domains, disabled, job } = data;
  if (
    !Array.isArray(watched) ||
    !watched.every((item) => isObject(item) && typeof item.type === 'string' && typeof item.name === 'string')
  ) {
    throw new TypeError(`webhook ${data.id}: "watched" is not a list of {type, name}`);
  }
  if (!Array.isArray(domains) || !domains.every((domain) => typeof domain === 'string')) {
    throw new TypeError(`webhook ${data.id}: "domains" is not a list of strings`);
  }
  if (typeof disabled !== 'boolean') throw new TypeError(`webhook ${data.id}: "disabled" is not a boolean`);
  if (job !== undefined && job !== null && !isObject(job)) throw new TypeError(`webhook ${data.id}: "job" is not an object`);
  const url = optionalString(data, 'url');
  const secret = optionalString(data, 'secret');
  return {
    id: data.id,
    ...(url !== undefined && { url }),
    ...(isObject(job) && { job }),
    watched: watched.map((item: { type: string; name: string }) => ({ type: item.type, name: item.name })),
    domains: [...(domains as string[])],
    ...(secret !== undefined && { secret }),
    disabled,
  };
}

/** get, create, update, enable and disable answer `{"webhook": {...}}`. */
export function readWebhookEnvelope(data: unknown): Webhook {
  if (!isObject(data) || !('webhook' in data)) throw new TypeError('no "webhook" key in the answer');
  return readWebhook(data.webhook);
}

/** list answers a bare array. */
export function readWebhookList(data: unknown): Webhook[] {
  if (!Array.isArray(data)) throw new TypeError('the webhook list is not an array');
  return data.map(readWebhook);
}
