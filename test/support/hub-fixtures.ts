import { readFileSync } from 'node:fs';
import nock from 'nock';
import type { Test } from 'tap';
import type { Webhook } from '../../src/hub/types.js';

function fixture(name: string): Webhook {
  return JSON.parse(readFileSync(new URL(`../fixtures/hub/${name}`, import.meta.url), 'utf8')) as Webhook;
}

/** A URL webhook as the hub returns it (with a key the client ignores: createdAt). */
export const urlWebhookJson = fixture('url-webhook.json');
/** A job webhook as the hub returns it: a `job` object and no `url`. */
export const jobWebhookJson = fixture('job-webhook.json');

export const HUB = 'https://huggingface.co';
export const TOKEN = 'hf_testTokenAbcdefghijklmnop';
/** What every library call takes from its caller: the token (the hub URL defaults to HUB). */
export const hubOptions = { accessToken: TOKEN };

/** nock for a whole test file: no real network, mocks and oclif's exit status reset after each test. */
export function useNock(t: Test): void {
  t.before(() => nock.disableNetConnect());
  t.afterEach(() => {
    nock.cleanAll();
    process.exitCode = undefined;
  });
  t.teardown(() => nock.enableNetConnect());
}

/** The create body for urlWebhookJson, as the hub expects it. */
export const urlWebhookCreateBody = {
  watched: urlWebhookJson.watched,
  domains: ['repo', 'discussion'],
  secret: 'my-secret',
  url: urlWebhookJson.url,
};
