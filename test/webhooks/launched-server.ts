// What the WebhooksServer tests (test/webhooks/server-*.test.ts) share: a launched server on a free
// loopback port, and a JSON POST to it.
import type { Test } from 'tap';
import type { WebhooksServerOptions } from '../../src/webhooks/options.js';
import { WebhooksServer } from '../../src/webhooks/server.js';

export const SECRET = 'wh-secret-7f3a91c2';
export const quietEnv = { HF_HUB_DISABLE_EXPERIMENTAL_WARNING: '1' };

/** A launched server on a free loopback port, closed after the test. */
export async function start(
  t: Test,
  options: WebhooksServerOptions = {},
  register: (server: WebhooksServer) => void = () => {},
): Promise<{ server: WebhooksServer; url: string; localUrl: string; printed: string[] }> {
  const printed: string[] = [];
  const server = new WebhooksServer({ port: 0, logger: false, env: quietEnv, print: (line) => printed.push(line), ...options });
  register(server);
  const launched = await server.launch();
  t.teardown(() => launched.close());
  return { server, url: launched.url, localUrl: launched.localUrl, printed };
}

export function post(url: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
}
