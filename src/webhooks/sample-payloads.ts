import { readFileSync } from 'node:fs';
import type { WebhookPayload } from './payload.js';

/** The event scopes the Hub documents, each with a sample delivery in `samples/<scope>.json`. */
export const SAMPLE_SCOPES = ['repo', 'repo.content', 'repo.config', 'discussion', 'discussion.comment'] as const;
export type SampleScope = (typeof SAMPLE_SCOPES)[number];

/** The sample delivery of a scope as the Hub would send it: JSON text, read when asked for. */
export function samplePayloadText(scope: SampleScope): string {
  if (!SAMPLE_SCOPES.includes(scope))
    throw new RangeError(`No sample payload for scope "${String(scope)}"; scopes: ${SAMPLE_SCOPES.join(', ')}.`);
  return readFileSync(new URL(`./samples/${scope}.json`, import.meta.url), 'utf8');
}

/** A fresh copy of the sample delivery of a scope, safe to change. */
export function samplePayload(scope: SampleScope): WebhookPayload {
  return JSON.parse(samplePayloadText(scope)) as WebhookPayload;
}
