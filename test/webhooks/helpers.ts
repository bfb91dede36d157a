import { readFileSync } from 'node:fs';
import type { WebhookPayload } from '../../src/webhooks/payload.js';
import { samplePayloadText, type SampleScope } from '../../src/webhooks/sample-payloads.js';

/** The package's sample deliveries (one per scope), under the names the tests read them by. */
const SAMPLES = {
  'repo-created': 'repo',
  'repo-content-update': 'repo.content',
  'repo-config-update': 'repo.config',
  'discussion-created': 'discussion',
  'comment-created': 'discussion.comment',
} as const satisfies Record<string, SampleScope>;

/** Test-only payloads in test/fixtures/webhooks. */
type TestFixtureName = 'pr-merged-model-dump' | 'repo-moved';

export type FixtureName = keyof typeof SAMPLES | TestFixtureName;

/** A fresh copy of a Hub payload fixture, safe to mutate. */
export function fixture(name: FixtureName): WebhookPayload {
  return JSON.parse(fixtureText(name)) as WebhookPayload;
}

export function fixtureText(name: FixtureName): string {
  if (name in SAMPLES) return samplePayloadText(SAMPLES[name as keyof typeof SAMPLES]);
  return readFileSync(new URL(`../fixtures/webhooks/${name}.json`, import.meta.url), 'utf8');
}
