import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/runtime/logger.js';
import type { WebhookPayload } from '../../src/webhooks/payload.js';

export type FixtureName = 'repo-content-update' | 'discussion-created' | 'comment-created' | 'repo-config-update';

/** A fresh copy of a Hub payload fixture, safe to mutate. */
export function fixture(name: FixtureName): WebhookPayload {
  return JSON.parse(fixtureText(name)) as WebhookPayload;
}

export function fixtureText(name: FixtureName): string {
  return readFileSync(new URL(`../fixtures/webhooks/${name}.json`, import.meta.url), 'utf8');
}

/** A logger whose lines the test can read back. */
export function capturedLogger(): { logger: Logger; text: () => string; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const text = (): string => chunks.join('');
  return {
    logger: createLogger({ debug: true, destination: stream }),
    text,
    lines: () =>
      text()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
