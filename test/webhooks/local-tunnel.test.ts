import t from 'tap';
import { fixedClock } from '../../src/runtime/clock.js';
import { DEFAULT_TUNNEL_HOST, TUNNEL_LIFETIME_MS, localTunnel, type Schedule } from '../../src/webhooks/local-tunnel.js';
import type { WebhookPayload } from '../../src/webhooks/payload.js';
import { sendTestDelivery } from '../../src/webhooks/send-test-delivery.js';
import { WebhooksServer } from '../../src/webhooks/server.js';
import { LOCALTUNNEL_MISSING_MESSAGE, loadLocaltunnel } from '../../src/webhooks/tunnel-client.js';
import { startLocaltunnelStandIn } from '../support/localtunnel-stand-in.js';
import { fixture } from './helpers.js';

const SECRET = 'wh-secret-7f3a91c2';
const quietEnv = { HF_HUB_DISABLE_EXPERIMENTAL_WARNING: '1' };
const OPENED_AT = '2026-11-23T09:00:00.000Z';

/** A clock of timers that only fire when the test says so. */
function manualTimers() {
  const timers: { ms: number; fire: () => void; cancelled: boolean }[] = [];
  const schedule: Schedule = (fire, ms) => {
    const timer = { ms, fire, cancelled: false };
    timers.push(timer);
    return () => void (timer.cancelled = true);
  };
  return { timers, schedule };
}

/** Resolves once `check` holds; bounds a wait on real sockets, never a fixed sleep. */
async function eventually(check: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !check(); waited += 10) {
    if (waited > 5000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

t.test('off unless asked: no tunnel, the URL is the local one', async (t) => {
  const server = new WebhooksServer({ port: 0, logger: false, env: quietEnv, print: () => {} });
  const launched = await server.launch();
  t.teardown(() => launched.close());
  t.equal(launched.url, launched.localUrl);
  t.equal(DEFAULT_TUNNEL_HOST, 'https://localtunnel.me', 'share: true goes to the public localtunnel server');
  t.equal(TUNNEL_LIFETIME_MS, 72 * 3600 * 1000);
});

t.test('share: deliveries reach the handler through the public URL, which closes itself after 72 hours', async (t) => {
  const standIn = await startLocaltunnelStandIn();
  t.teardown(() => standIn.close());
  const { timers, schedule } = manualTimers();
  const printed: string[] = [];
  const received: WebhookPayload[] = [];
  const server = new WebhooksServer({
    port: 0,
    logger: false,
    env: quietEnv,
    webhookSecret: SECRET,
    clock: fixedClock(OPENED_AT),
    print: (line) => printed.push(line),
    share: { host: standIn.url, schedule },
  });
  server.addWebhook(function on_commit(payload) {
    received.push(payload);
    return { ok: true };
  });
  const launched = await server.launch();
  t.teardown(() => launched.close());

  t.equal(standIn.requests(), 1, 'one GET /?new');
  t.equal(launched.url, standIn.publicUrl());
  t.not(launched.url, launched.localUrl);
  t.same(launched.webhookUrls, [`${standIn.publicUrl()}/webhooks/on_commit`]);
  t.ok(printed.includes(`Running on public URL: ${standIn.publicUrl()}`), 'prints the public URL');
  t.ok(printed.includes('The public URL expires at 2026-11-26T09:00:00.000Z; it closes itself then.'), 'and when it closes');
  t.ok(printed.includes(`  - POST ${standIn.publicUrl()}/webhooks/on_commit`));

  await eventually(() => standIn.openTunnels() === 2, 'the client to open max_conn_count tunnels');
  const answer = await sendTestDelivery(`${launched.url}/webhooks/on_commit`, fixture('repo-content-update'), {
    secret: SECRET,
    headers: { connection: 'close' },
  });
  t.same([answer.status, answer.body], [200, { ok: true }], 'through the tunnel, secret checked');
  t.equal(received[0]?.repo.name, 'Wauplin/gradio-user-history');
  const refused = await sendTestDelivery(`${launched.url}/webhooks/on_commit`, fixture('repo-content-update'), {
    headers: { connection: 'close' },
  });
  t.equal(refused.status, 401);

  const expiry = timers.find((timer) => timer.ms === TUNNEL_LIFETIME_MS);
  t.ok(expiry, 'a 72-hour timer');
  expiry!.fire();
  t.ok(
    printed.includes(
      `The public URL ${standIn.publicUrl()} expired and is closed (72 hours after it opened). The local URL ${launched.localUrl} still works.`,
    ),
  );
  await eventually(() => standIn.openTunnels() === 0, 'the tunnels to close');
  const local = await sendTestDelivery(`${launched.localUrl}/webhooks/on_commit`, fixture('repo-content-update'), { secret: SECRET });
  t.equal(local.status, 200, 'the local server keeps working');
});

t.test('closing the server closes the tunnel and cancels the expiry', async (t) => {
  const standIn = await startLocaltunnelStandIn();
  t.teardown(() => standIn.close());
  const { timers, schedule } = manualTimers();
  const server = new WebhooksServer({
    port: 0,
    logger: false,
    env: quietEnv,
    print: () => {},
    tunnel: localTunnel({ host: `${standIn.url}/`, schedule, print: () => {} }),
  });
  const launched = await server.launch();
  await eventually(() => standIn.openTunnels() === 2, 'the tunnels to open');
  await launched.close();
  await eventually(() => standIn.openTunnels() === 0, 'the tunnels to close');
  t.equal(timers.find((timer) => timer.ms === TUNNEL_LIFETIME_MS)?.cancelled, true);
});

t.test('a tunnel server that refuses: launch fails with its message, and the local server keeps serving', async (t) => {
  const standIn = await startLocaltunnelStandIn({ status: 503, message: 'no more tunnels today' });
  t.teardown(() => standIn.close());
  const server = new WebhooksServer({ port: 0, logger: false, env: quietEnv, print: () => {}, share: { host: standIn.url } });
  server.addWebhook('/x', () => 'local');
  t.teardown(() => server.close());
  await t.rejects(server.launch(), {
    name: 'WebhookTunnelError',
    message: `The tunnel server ${standIn.url} gave no URL: no more tunnels today`,
  });
  t.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/, 'the local URL');
  t.equal((await sendTestDelivery(`${server.url}/webhooks/x`, fixture('repo-content-update'))).body, 'local');
});

t.test('without the localtunnel package, share says what to install', async (t) => {
  const missing = Object.assign(new Error("Cannot find package 'localtunnel'"), { code: 'ERR_MODULE_NOT_FOUND' });
  await t.rejects(
    loadLocaltunnel(() => Promise.reject(missing)),
    { message: LOCALTUNNEL_MISSING_MESSAGE, cause: missing },
  );
  t.match(LOCALTUNNEL_MISSING_MESSAGE, 'npm install localtunnel@2.0.2');
  const other = new Error('broken');
  await t.rejects(
    loadLocaltunnel(() => Promise.reject(other)),
    other,
    'another failure is passed on as it is',
  );
});
