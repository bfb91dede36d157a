import t from 'tap';
import { SECRET, start } from './launched-server.js';

t.test('the landing page lists the routes, the secret state and the Hub setup', async (t) => {
  const { url } = await start(t, { webhookSecret: SECRET }, (server) => server.addWebhook('/on_commit', () => 1));
  const res = await fetch(`${url}/`);
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /^text\/html/);
  const html = await res.text();
  t.match(html, `POST ${url}/webhooks/on_commit`);
  t.match(html, 'https://huggingface.co/settings/webhooks');
  t.match(html, 'A secret is set');
  t.notMatch(html, SECRET, 'the secret itself is never shown');
  t.match(html, 'runs locally');
});

t.test('the ui option replaces the landing page: a string or a function', async (t) => {
  const fixed = await start(t, { ui: '<h1>Mine</h1>' }, (server) => server.addWebhook('/x', () => 1));
  t.equal(await (await fetch(`${fixed.url}/`)).text(), '<h1>Mine</h1>');
  const dynamic = await start(
    t,
    { ui: async (info) => `<p>${info.webhooks.map((w) => w.url).join(',')} secret=${info.secretSet} local=${info.local}</p>` },
    (server) => server.addWebhook('/y', () => 1),
  );
  t.equal(await (await fetch(`${dynamic.url}/`)).text(), `<p>${dynamic.url}/webhooks/y secret=false local=true</p>`);
});
