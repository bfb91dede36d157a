// The receiving server as a user runs it: a secret, one handler that reads the payload.
import { WebhooksServer } from 'emotion-hub';
import { reportListening } from '../lib/child.js';

let deliveries = 0;
const server = new WebhooksServer({ webhookSecret: 'bench-secret', port: 0, logger: false, autoStart: false, print: () => undefined });
server.addWebhook('/model_updated', async (payload) => {
  deliveries += 1;
  return { ok: true, repo: payload.repo.name };
});
const launched = await server.launch();
process.once('SIGTERM', () => void launched.close().then(() => process.exit(0)));
reportListening(launched.localUrl, () => ({ deliveries }));
