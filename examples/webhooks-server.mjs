// Two Hub webhook handlers; run `WEBHOOK_SECRET=my-secret node examples/webhooks-server.mjs`.
// The server starts by itself once this script's code has run, and prints its URLs.
import { webhookEndpoint } from 'emotion-hub';

// POST /webhooks/on_repo_update: named after the function.
webhookEndpoint(async function on_repo_update(payload, { webhookId }) {
  if (payload.event.scope.startsWith('repo') && payload.event.action === 'update') {
    console.log(`${payload.repo.type} ${payload.repo.name} changed (delivery ${webhookId})`);
  }
  return { processed: true };
});

// POST /webhooks/discussions: named explicitly.
webhookEndpoint('/discussions', (payload) => {
  if (payload.discussion) console.log(`#${payload.discussion.num} ${payload.discussion.title}: ${payload.event.action}`);
});
