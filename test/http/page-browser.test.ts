import t, { type Test } from 'tap';
import { mkdirSync } from 'node:fs';
import { holdChats, launchChromium, readyPage } from '../support/browser.js';
import { harness } from '../support/harness.js';

// A real headless Chromium against the real app on an ephemeral port, with the fake system behind the bus.
const OUTPUT = 'test-output';

async function served(t: Test) {
  const setup = await harness(t, { system: 'fake', app: { pollIntervalMs: 100, timeouts: { statusMs: 500, chatMs: 2000 } } });
  const address = await setup.app.listen({ host: '127.0.0.1', port: 0 });
  return { ...setup, address };
}

const barWidth = (id: string) => `document.getElementById('${id}').style.width`;

t.test('the page waits for initialization, chats, shows replies as text and moves the bars', async (t) => {
  const { system, address } = await served(t);
  system.phase = 'initializing';
  const context = await launchChromium(t);
  const page = await context.newPage();
  const outside: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(address)) outside.push(request.url());
  });
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`${address}/`);

  await page.locator('#state', { hasText: 'initializing' }).waitFor();
  t.ok(await page.isDisabled('#send'), 'no sending while the system initializes');
  await page.locator('#joy-bar[style*="width: 50%"]').waitFor();
  t.equal(await page.evaluate(barWidth('curiosity-bar')), '46%', 'bars are drawn from /api/avatar while initializing');
  t.same(
    await page.evaluate(`(({ transitionProperty, transitionDuration, transitionTimingFunction }) =>
      [transitionProperty, transitionDuration, transitionTimingFunction])(getComputedStyle(document.getElementById('joy-bar')))`),
    ['width', '0.5s', 'ease'],
  );

  system.phase = 'ready';
  await page.locator('#state', { hasText: 'Ready' }).waitFor();

  system.chatBehaviour = {
    kind: 'reply',
    response: 'I feel <b>bold</b> today',
    avatarShape: 'Triangle',
    emotions: { joy: 0.9, sadness: 0.05, anger: 0.1, fear: 0.1, curiosity: 0.7 },
  };
  await page.getByLabel('Your message').fill('Hello <i>you</i>');
  await page.getByLabel('Your message').press('Enter');
  await page.locator('.message.bot:not(.thinking)').waitFor();

  t.equal(await page.locator('.message.bot p').textContent(), 'I feel <b>bold</b> today', 'the reply is literal text');
  t.equal(await page.locator('#conversation b').count(), 0, 'no <b> element was made');
  t.equal(await page.locator('#conversation i').count(), 0, "the user's own text is not HTML either");
  t.same(system.messages, ['Hello <i>you</i>']);
  // The bubble shows at the reply's first frame, the bars at its end: wait (bounded) for the end.
  await page.waitForFunction(`${barWidth('joy-bar')} === '90%'`, undefined, { timeout: 10_000 }).catch(() => undefined);
  t.equal(await page.evaluate(barWidth('joy-bar')), '90%', 'the bars move with the reply');
  t.equal(await page.evaluate(barWidth('sadness-bar')), '5%');
  t.equal(await page.locator('#avatar').getAttribute('data-shape'), 'Triangle');
  t.equal(await page.locator('#avatar-shape').textContent(), 'Triangle');
  t.equal(await page.locator('#conversation').getAttribute('aria-live'), 'polite');
  t.equal(await page.getByLabel('Your message').inputValue(), '', 'the box is cleared after a reply');

  // The drift moves the emotions: the next poll redraws them.
  system.emotions = { joy: 0.3, sadness: 0.6, anger: 0.2, fear: 0.25, curiosity: 0.4 };
  await page.locator('#sadness-bar[style*="width: 60%"]').waitFor();
  t.equal(await page.evaluate(barWidth('joy-bar')), '30%');
  await page.waitForTimeout(600); // let the 0.5 s transition finish before the picture

  mkdirSync(OUTPUT, { recursive: true });
  await page.screenshot({ path: `${OUTPUT}/page.png`, fullPage: true });
  t.same(outside, [], 'the page fetches nothing beyond the service');
  t.same(problems, [], 'no script error and no content security policy violation');
});

t.test('a failed chat says why and gives the message back', async (t) => {
  const { system, address } = await served(t);
  const page = await readyPage(t, address);
  system.chatBehaviour = { kind: 'reject', reason: 'provider_failed', error: 'boom' };
  await page.getByLabel('Your message').fill('are you there?');
  await page.getByRole('button', { name: 'Send' }).click();
  await page.locator('.message.error').waitFor();
  t.match(await page.locator('.message.error p').textContent(), /language model failed/);
  t.equal(await page.getByLabel('Your message').inputValue(), 'are you there?');
  await page.getByLabel('Your message').fill('   ');
  await page.getByLabel('Your message').press('Enter');
  // A hint, said as a status under the box: not an error of the conversation.
  await page.getByRole('status').filter({ hasText: 'Please type a message first.' }).waitFor();
  t.equal(await page.locator('.message.error').count(), 1, 'no error bubble for it');
  t.same(system.messages, ['are you there?'], 'a blank message is not sent');
});

t.test('with the key missing the page goes to /error, which explains LLM_API_KEY', async (t) => {
  const { system, address } = await served(t);
  system.phase = 'keyMissing';
  const context = await launchChromium(t);
  const page = await context.newPage();
  let toError = 0;
  page.on('request', (request) => {
    if (request.isNavigationRequest() && new URL(request.url()).pathname === '/error') toError += 1;
  });
  await page.goto(`${address}/`);
  await page.waitForURL(`${address}/error`);
  // The start's check and the first avatar poll both see the missing key: a second navigation would abort the first.
  t.equal(toError, 1, 'the page leaves for /error once');
  t.match(await page.locator('h1').textContent(), /not available/);
  t.match(await page.locator('main').textContent(), /LLM_API_KEY/);
  await page.locator('#state', { hasText: 'LLM_API_KEY is not set (state: missing_llm_key)' }).waitFor();
  t.ok(await page.locator('#key-missing').isVisible(), 'what to set');
  t.notOk(await page.locator('#failed').isVisible(), 'and no "Initialization failed": nothing failed');
  mkdirSync(OUTPUT, { recursive: true });
  await page.screenshot({ path: `${OUTPUT}/error-page.png`, fullPage: true });

  system.phase = 'ready';
  await page.reload();
  await page.locator('#state', { hasText: 'ready now' }).waitFor();
  t.equal(await page.locator('#state a').getAttribute('href'), '/');
  t.equal(await page.locator('h1').textContent(), 'Emotion chat is ready', 'no "not available" headline when it is ready');
  t.equal(await page.title(), 'Emotion chat: ready');
  system.phase = 'failed';
  await page.reload();
  await page.locator('#state', { hasText: 'state: error' }).waitFor();
  t.ok(await page.locator('#failed').isVisible(), 'a failure: what to read and fix');
  t.notOk(await page.locator('#key-missing').isVisible(), 'and not the missing key');
  system.phase = 'ready';
  await page.reload();
  await page.locator('#state', { hasText: 'ready now' }).waitFor();
  await page.screenshot({ path: `${OUTPUT}/error-page-ready.png`, fullPage: true });
});

t.test('while a reply is pending the avatar is thinking (aria-busy) and the message stays', async (t) => {
  const { address } = await served(t);
  const context = await launchChromium(t);
  const page = await context.newPage();
  const release = await holdChats(page);
  await page.goto(`${address}/`);
  await page.locator('#state', { hasText: 'Ready' }).waitFor();
  t.equal(await page.locator('#avatar-figure').getAttribute('aria-busy'), 'false');
  await page.getByLabel('Your message').fill('are you thinking?');
  await page.getByLabel('Your message').press('Enter');
  await page.locator('#thinking', { hasText: 'Thinking' }).waitFor();
  t.equal(await page.locator('.message.user p').textContent(), 'are you thinking?', 'the message stays visible');
  t.ok(await page.isDisabled('#send'), 'one message at a time');
  await page.locator('#avatar-figure[aria-busy="true"]').waitFor();
  t.equal(await page.locator('#avatar').getAttribute('data-activity'), 'thinking');
  t.ok(await page.locator('.thought').isVisible(), 'the avatar shows a thought bubble');
  t.equal(await page.locator('#avatar-activity').textContent(), 'Thinking…');
  mkdirSync(OUTPUT, { recursive: true });
  await page.screenshot({ path: `${OUTPUT}/page-thinking.png`, fullPage: true });
  release();
  await page.locator('.message.bot:not(.thinking)').waitFor();
  t.equal(await page.locator('#thinking').count(), 0, 'the thinking line is gone with the reply');
  t.equal(await page.locator('.message.bot p').textContent(), 'Hello there!');
  await page.locator('#avatar-figure[aria-busy="false"]').waitFor();
  t.equal(await page.locator('#avatar').getAttribute('data-activity'), 'idle');
});

t.test('a page that loses its service says so, turns Send off, and comes back when a poll succeeds', async (t) => {
  const { app, address } = await served(t);
  const page = await readyPage(t, address);
  t.notOk(await page.isDisabled('#send'));
  // The service stops: its port refuses connections.
  await app.close();
  await page.locator('#state', { hasText: 'cannot be reached' }).waitFor();
  t.ok(await page.isDisabled('#send'), 'Send is off while the service cannot be reached');
  mkdirSync(OUTPUT, { recursive: true });
  await page.screenshot({ path: `${OUTPUT}/page-unreachable.png`, fullPage: true });
  // It comes back on the same address.
  const again = await harness(t, { system: 'fake', app: { pollIntervalMs: 100, timeouts: { statusMs: 500, chatMs: 2000 } } });
  const { port } = new URL(address);
  await again.app.listen({ host: '127.0.0.1', port: Number(port) });
  await page.locator('#state', { hasText: /^Ready\./ }).waitFor();
  t.notOk(await page.isDisabled('#send'), 'Send is back once a poll succeeds');
});

t.test('when the state leaves ready the page says which state, and follows it back', async (t) => {
  const { system, address } = await served(t);
  const page = await readyPage(t, address);
  system.phase = 'failed';
  await page.locator('#state', { hasText: 'state: error' }).waitFor();
  t.ok(await page.isDisabled('#send'));
  system.phase = 'initializing';
  await page.locator('#state', { hasText: 'initializing' }).waitFor();
  t.ok(await page.isDisabled('#send'));
  system.phase = 'ready';
  await page.locator('#state', { hasText: /^Ready\./ }).waitFor();
  t.notOk(await page.isDisabled('#send'));
});

t.test('on a phone-sized screen the page stacks into one readable column', async (t) => {
  const { address } = await served(t);
  const page = await readyPage(t, address, { width: 375, height: 740 });
  const scrollWidth = await page.evaluate('document.documentElement.scrollWidth');
  t.ok(Number(scrollWidth) <= 375, `no sideways scrolling (${String(scrollWidth)} px)`);
  const [avatarBox, chatBox] = await Promise.all([page.locator('.avatar-panel').boundingBox(), page.locator('.chat-panel').boundingBox()]);
  t.ok(avatarBox && chatBox && chatBox.y >= avatarBox.y + avatarBox.height, 'the chat sits below the avatar');
  mkdirSync(OUTPUT, { recursive: true });
  await page.screenshot({ path: `${OUTPUT}/page-phone.png`, fullPage: true });
});
