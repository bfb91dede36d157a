import t from 'tap';
import { createServer, request as forward, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { launchChromium } from '../support/browser.js';
import { eventually } from '../../testkit/eventually.js';
import { startRealService } from '../support/real-service.js';
import { healthy, listeningProvider } from '../../testkit/provider-stand-in.js';

// The page as a Hugging Face Space shows it: in a frame on another site. The real service runs as
// on a Space (SPACE_ID set) behind a stand-in for the Space's proxy, which ends TLS and says so in
// X-Forwarded-Proto; the framing page is served from another origin (127.0.0.2) named in
// FRAME_ANCESTORS; real Chromium chats inside the frame, the provider stand-in answers.

async function listen(server: Server, host: string, t: { teardown(fn: () => unknown): void }): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  return `http://${host}:${(server.address() as AddressInfo).port}`;
}

/** The Space's proxy, reduced to what the service sees of it: every request forwarded with X-Forwarded-Proto: https. */
function spaceProxy(target: string): Server {
  const { hostname, port } = new URL(target);
  return createServer((incoming, outgoing) => {
    const upstream = forward(
      { hostname, port, method: incoming.method, path: incoming.url, headers: { ...incoming.headers, 'x-forwarded-proto': 'https' } },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  });
}

/** Another site whose page frames `src`. */
function framingSite(src: () => string): Server {
  return createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      `<!doctype html><title>Another site</title><h1>Another site</h1><iframe src="${src()}" title="Emotion chat" width="900" height="700"></iframe>`,
    );
  });
}

t.test('framed from an origin in FRAME_ANCESTORS, the page chats and keeps one conversation', async (t) => {
  const provider = await listeningProvider(t, healthy('Nice to hear from you.'));
  let proxied = '';
  const site = await listen(
    framingSite(() => proxied),
    '127.0.0.2',
    t,
  );
  const { service } = await startRealService(
    t,
    { LLM_API_KEY: 'sk-framed', LLM_BASE_URL: provider.baseURL, SPACE_ID: 'someone/emotion-hub', FRAME_ANCESTORS: site },
    { pollIntervalMs: 200 },
  );
  proxied = await listen(spaceProxy(service.address), '127.0.0.1', t);

  const context = await launchChromium(t);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  await page.goto(`${site}/`);
  const frame = page.frameLocator('iframe');
  await frame.locator('#state', { hasText: 'Ready' }).waitFor({ timeout: 30_000 });

  const cookies = await context.cookies(proxied);
  t.match(cookies, [{ name: 'emotion_hub_session', sameSite: 'None', secure: true, httpOnly: true }], 'the frame got its session cookie');

  await frame.getByLabel('Your message').fill('Hello from the frame, I am Ada.');
  await frame.getByLabel('Your message').press('Enter');
  await frame.locator('.message.bot:not(.thinking)').first().waitFor();
  await eventually('Send to come back', async () => ((await frame.locator('#send').isEnabled()) ? true : undefined));
  await frame.getByLabel('Your message').fill('Do you remember my name?');
  await frame.getByLabel('Your message').press('Enter');
  await eventually('the second reply', async () => ((await frame.locator('.message.bot:not(.thinking)').count()) === 2 ? true : undefined));

  t.equal(
    await frame.locator('.message.bot p').nth(1).textContent(),
    'Nice to hear from you.',
    'the provider stand-in answered in the frame',
  );
  const second = provider.prompts.at(-1)!.messages.map((message) => message.content);
  t.ok(second.includes('Hello from the frame, I am Ada.'), 'the second message went out with the first: one conversation');
  t.ok(second.includes('Do you remember my name?'));
  t.equal((await context.cookies(proxied)).length, 1, 'still one session cookie');
  t.same(
    problems.filter((text) => /frame|Content Security Policy/i.test(text)),
    [],
    'no framing refused',
  );
});

t.test('an origin not in FRAME_ANCESTORS cannot frame the page', async (t) => {
  const provider = await listeningProvider(t);
  let target = '';
  const site = await listen(
    framingSite(() => target),
    '127.0.0.2',
    t,
  );
  const { service } = await startRealService(t, {
    LLM_API_KEY: 'sk-framed',
    LLM_BASE_URL: provider.baseURL,
    FRAME_ANCESTORS: 'https://example.com',
  });
  target = `${service.address}/`;
  const context = await launchChromium(t);
  const page = await context.newPage();
  const blocked = new Promise<string>((resolve) =>
    page.on('console', (message) => {
      if (/frame-ancestors/.test(message.text())) resolve(message.text());
    }),
  );
  await page.goto(`${site}/`);
  t.match(await blocked, /frame-ancestors/, 'Chromium refuses the frame and says why');
  t.equal(await page.frameLocator('iframe').locator('#state').count(), 0, 'the page is not shown in it');
});
