import { escapeHtml } from '../runtime/html.js';

export const HUB_WEBHOOKS_SETTINGS_URL = 'https://huggingface.co/settings/webhooks';
export const HUB_WEBHOOKS_DOCS_URL = 'https://huggingface.co/docs/hub/webhooks';

/** What the landing page (the default one, or the `ui` function) is told about the server. */
export interface LandingPageInfo {
  /** The URL the Hub should use: the tunnel's or the Space's public URL when there is one, else the local URL. */
  readonly url: string;
  /** One entry per registered route, with its absolute POST URL. */
  readonly webhooks: readonly { readonly name: string; readonly url: string }[];
  /** Whether deliveries must carry the secret. */
  readonly secretSet: boolean;
  /** True when `url` is only the local address (no tunnel, not on a Space). */
  readonly local: boolean;
}

/** The default `GET /` page: the routes, the secret's state, and how to point a Hub webhook at them. */
export function renderLandingPage(info: LandingPageInfo): string {
  const routes =
    info.webhooks.length === 0
      ? '<p>No webhook is registered yet.</p>'
      : `<p>${info.webhooks.length} webhook(s) are registered:</p>\n<ul>\n${info.webhooks
          .map((w) => `  <li><code>POST ${escapeHtml(w.url)}</code></li>`)
          .join('\n')}\n</ul>`;
  const secret = info.secretSet
    ? '<p>A secret is set: only deliveries carrying it in the <code>X-Webhook-Secret</code> header are accepted.</p>'
    : '<p class="warn">No secret is set: these routes are open to everyone. Set <code>WEBHOOK_SECRET</code>, or pass <code>webhookSecret</code> to <code>new WebhooksServer(…)</code>.</p>';
  const reach = info.local
    ? '<p>This server runs locally: the Hub can only reach it through a public URL (a tunnel, or a deployed Space).</p>'
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Webhooks server</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; }
code { background: #f3f3f3; padding: 0.1rem 0.3rem; border-radius: 4px; }
.warn { color: #9a3412; }
</style>
</head>
<body>
<h1>This is an app to process 🤗 Webhooks</h1>
<p>Webhooks let your code react to changes on the Hugging Face Hub: new commits, pull requests, discussions, comments, settings.
See the <a href="${HUB_WEBHOOKS_DOCS_URL}">webhooks documentation</a>.</p>
${routes}
${secret}
<h2>Set up a webhook on the Hub</h2>
<ol>
  <li>Open <a href="${HUB_WEBHOOKS_SETTINGS_URL}">${HUB_WEBHOOKS_SETTINGS_URL}</a> and create a webhook.</li>
  <li>Choose the repositories, users or organizations to watch, and the domains (repo, discussion).</li>
  <li>Set its target URL to one of the URLs above${info.secretSet ? ', and its secret to this server’s secret' : ''}.</li>
</ol>
${reach}
</body>
</html>
`;
}
