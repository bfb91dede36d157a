import t from 'tap';
import { sendTestDelivery } from '../../src/webhooks/send-test-delivery.js';
import { WebhookTunnelError } from '../../src/webhooks/errors.js';
import { WebhooksServer } from '../../src/webhooks/server.js';
import { capturedLogger } from '../support/captured-logger.js';
import { fixture } from './helpers.js';
import { quietEnv, start } from './launched-server.js';

t.test('launch() is idempotent and close() frees the port; a closed server can launch again', async (t) => {
  const server = new WebhooksServer({ port: 0, logger: false, env: quietEnv, print: () => {} });
  server.addWebhook('/x', () => 'x');
  const [a, b] = await Promise.all([server.launch(), server.launch()]);
  t.equal(a.url, b.url);
  t.equal(server.url, a.url);
  t.same(a.webhookUrls, [`${a.url}/webhooks/x`]);
  await a.close();
  t.equal(server.url, undefined);
  await t.rejects(fetch(`${a.url}/`), 'nothing listens after close');
  const again = await server.launch();
  t.equal((await sendTestDelivery(`${again.url}/webhooks/x`, fixture('repo-config-update'))).body, 'x');
  await server.close();
  await server.close();
});

t.test('a tunnel provider gives the public URL; nothing is opened without one', async (t) => {
  const opened: string[] = [];
  let closed = false;
  const { server, url, printed } = await start(
    t,
    {
      tunnel: {
        async open(local) {
          opened.push(local.url);
          return { url: 'https://quiet-river-42.example.dev/', close: () => void (closed = true) };
        },
      },
    },
    (server) => server.addWebhook('/x', () => 1),
  );
  t.equal(url, 'https://quiet-river-42.example.dev');
  t.match(opened[0], /^http:\/\/127\.0\.0\.1:\d+$/);
  t.match(printed.join('\n'), 'Running on public URL: https://quiet-river-42.example.dev');
  t.match(printed.join('\n'), '  - POST https://quiet-river-42.example.dev/webhooks/x');
  await server.close();
  t.equal(closed, true, 'the tunnel closes with the server');
});

t.test('a failing tunnel: launch() reports it and logs it, and the local server keeps serving', async (t) => {
  const log = capturedLogger();
  const printed: string[] = [];
  const server = new WebhooksServer({
    port: 0,
    logger: log.logger,
    env: quietEnv,
    print: (line) => printed.push(line),
    tunnel: { open: () => Promise.reject(new Error('tunnel refused')) },
  });
  server.addWebhook('/x', () => 'served');
  t.teardown(() => server.close());
  const failure = (await server.launch().then(
    () => undefined,
    (error: unknown) => error,
  )) as WebhookTunnelError;
  t.type(failure, WebhookTunnelError);
  t.equal(failure.message, 'tunnel refused');
  t.equal(server.url, failure.localUrl, 'the URL is the local one');
  t.match(printed.join('\n'), 'The public URL could not open: tunnel refused The local URL still works.');
  t.match(
    log.lines().find((line) => line.level === 50),
    {
      msg: 'the public URL could not open; the local server keeps serving',
      localUrl: failure.localUrl,
      err: { message: 'tunnel refused' },
    },
  );
  const answer = await sendTestDelivery(`${failure.localUrl}/webhooks/x`, fixture('repo-config-update'));
  t.same([answer.status, answer.body], [200, 'served'], 'deliveries are still handled locally');
  await server.close();
  await t.rejects(fetch(`${failure.localUrl}/`), 'close() stops it');
});

t.test('on a Space, the public URL is https://SPACE_HOST', async (t) => {
  const { url, localUrl } = await start(t, { env: { ...quietEnv, SPACE_HOST: 'julien-c-hooks.hf.space' } }, (server) =>
    server.addWebhook('/x', () => 1),
  );
  t.equal(url, 'https://julien-c-hooks.hf.space');
  const html = await (await fetch(`${localUrl}/`)).text();
  t.match(html, 'POST https://julien-c-hooks.hf.space/webhooks/x');
  t.notMatch(html, 'runs locally');
});
