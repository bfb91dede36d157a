import type { WebhookHandler } from './handler.js';
import { WebhooksServer, type RegisteredWebhook } from './server.js';

let shared: WebhooksServer | undefined;

/**
 * The server `webhookEndpoint` registers on, created on first use with the
 * defaults (secret from `WEBHOOK_SECRET`, port from `PORT` else 7860). Call
 * its `launch()` to start it by hand, as in a REPL.
 */
export function defaultWebhooksServer(): WebhooksServer {
  shared ??= new WebhooksServer();
  return shared;
}

/**
 * Registers `handler` on the shared default server, which starts by itself
 * once the script's own code has run: the equivalent of huggingface_hub's
 * `@webhook_endpoint` decorator.
 */
export function webhookEndpoint(handler: WebhookHandler): RegisteredWebhook;
export function webhookEndpoint(name: string, handler: WebhookHandler): RegisteredWebhook;
export function webhookEndpoint(nameOrHandler: string | WebhookHandler, handler?: WebhookHandler): RegisteredWebhook {
  const server = defaultWebhooksServer();
  return typeof nameOrHandler === 'string' ? server.addWebhook(nameOrHandler, handler as WebhookHandler) : server.addWebhook(nameOrHandler);
}
