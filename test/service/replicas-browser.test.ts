import t from 'tap';
import type { Page } from 'playwright-core';
import { launchChromium } from '../support/browser.js';
import { eventually } from '../../testkit/eventually.js';
import { COMPLETION_END, completionFrame } from '../../testkit/provider-wire.js';
import { twoReplicas } from '../support/replica-pair.js';

// Two tabs of one visitor in real headless Chromium, each on its own replica of one Redis (a
// cookie is the host's whatever the port: one visitor), with no sticky anything between them.

const replies = (page: Page) =>
  page.locator('#conversation .message.bot:not(.thinking) .markdown').evaluateAll((items) => items.map((item) => item.textContent?.trim()));

t.test('two tabs on two replicas are in step: a message, its growing reply, a stop, a new conversation', async (t) => {
  const { provider, addresses } = await twoReplicas(t);
  const context = await launchChromium(t);
  const [one, two] = [await context.newPage(), await context.newPage()];
  const problems: string[] = [];
  for (const page of [one, two]) page.on('pageerror', (error) => problems.push(error.message));
  for (const [page, address] of [
    [one, addresses[0]],
    [two, addresses[1]],
  ] as const) {
    await page.goto(`${address}/`);
    await page.locator('#state', { hasText: 'Ready' }).waitFor();
  }

  /** Sends `text` from tab one and writes its reply's first piece at the provider. */
  const sendFromOne = async (text: string, firstPiece: string) => {
    const n = provider.streams.length + 1;
    await one.getByLabel('Your message').fill(text);
    await one.getByLabel('Your message').press('Enter');
    await eventually(`provider call ${n}`, () => provider.streams.length === n);
    provider.streams[n - 1]!.write(completionFrame(firstPiece));
  };

  // A message sent in the tab on replica one shows in the tab on replica two, its reply growing there.
  await sendFromOne('Tell me a story', 'Once ');
  await two.locator('.message.user', { hasText: 'Tell me a story' }).waitFor();
  await two.locator('.message.bot .markdown', { hasText: 'Once' }).waitFor();
  provider.streams[0]!.end(completionFrame('upon a time.') + COMPLETION_END);
  for (const page of [one, two]) {
    await page.locator('.message.bot .markdown', { hasText: 'Once upon a time.' }).waitFor();
    t.same(await replies(page), ['Once upon a time.'], 'the reply whole, no gap, no repeat');
  }

  // Esc in the tab on replica one: the tab on replica two shows the reply stopped too.
  await sendFromOne('Another one', 'Half');
  await two.locator('.message.bot .markdown', { hasText: 'Half' }).waitFor();
  await one.locator('.message.bot .markdown', { hasText: 'Half' }).waitFor();
  await one.keyboard.press('Escape');
  await two.locator('.message.bot.stopped', { hasText: 'Half' }).waitFor();
  t.pass('stopped, and shown stopped on the other replica');

  // New conversation on replica two empties the tab on replica one.
  await two.getByRole('button', { name: 'New conversation' }).click();
  await eventually('the tab on replica one cleared', async () => (await one.locator('#conversation .message').count()) === 0, {
    timeoutMs: 20_000,
  });
  t.same(problems, [], 'no script error');
});
