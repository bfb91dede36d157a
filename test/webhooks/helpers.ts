import { readFileSync } from 'node:fs';
import type { WebhookPayload } from '../../src/webhooks/payload.js';

export type FixtureName = 'repo-content-update' | 'discussion-created' | 'comment-created' | 'repo-config-update';

/** A fresh copy of a Hub payload fixture, safe to mutate. */
export function fixture(name: FixtureName): WebhookPayload {
  return JSON.parse(fixtureText(name)) as WebhookPayload;
}

export function fixtureText(name: FixtureName): string {
  return readFileSync(new URL(`../fixtures/webhooks/${name}.json`, import.meta.url), 'utf8');
}
