import t from 'tap';
import type { Page } from 'playwright-core';
import { launchChromium } from '../support/browser.js';
import { eventually } from '../../testkit/eventually.js';
import { COMPLETION_END, completionFrame } from '../../testkit/provider-wire.js';
import { heldCalls } from '../../testkit/held-completions.js';
import { harness } from '../support/harness.js';

// Turns in real headless Chromium: a reply shown whole after a reload and after a dropped
// connection, two tabs of one visitor in step, Esc stops, regenerate and edit with their versions,
// and New conversation undone, then done.

/** The text of the page's replies, in order (the thinking line apart). */
const replies = (page: Page) =>
  page.locator('#conversation .message.bot:not(.thinking) .markdown').evaluateAll((items) => items.map((item) => item.textContent?.trim()));
const messages = (page: Page) =>
  page.locator('#conversation .message.user > p').evaluateAll((items) => items.map((item) => item.textContent?.trim()));

async function send(page: Page, text: string): Promise<void> {
  await page.getByLabel('Your message').fill(text);
  await page.getByLabel('Your message').press('Enter');
}

t.test('turns on the page: reload, dropped connection, tabs in step, Esc, regenerate, edit, New conversation undone', async (t) => {
  const { calls, fetch } = heldCalls();
  // Replies held for as long as the steps take: the chat's deadline far off.
  const { address, app } = await harness(t, {
    system: 'real',
    served: true,
    fetch,
    pollIntervalMs: 600_000,
    env: { LLM_TIMEOUT_MS: '120000' },
  });
  const context = await launchChromium(t);
  const [one, two] = [await context.newPage(), await context.newPage()];
  const problems: string[] = [];
  for (const page of [one, two]) page.on('pageerror', (error) => problems.push(error.message));
  for (const page of [one, two]) {
    await page.goto(`${address}/`);
    await page.locator('#state', { hasText: 'Ready' }).waitFor();
  }
  const call = (n: number) => eventually(`provider call ${n}`, () => calls[n - 1]);

  // A message sent in one tab shows in the other, with its reply growing; a reload mid-reply shows it whole.
  await send(one, 'Tell me a story');
  (await call(1)).body.write(completionFrame('Once '));
  await two.locator('.message.user', { hasText: 'Tell me a story' }).waitFor();
  await two.locator('.message.bot .markdown', { hasText: 'Once' }).waitFor();
  await one.reload();
  await one.locator('.message.bot .markdown', { hasText: 'Once' }).waitFor();
  t.same(await messages(one), ['Tell me a story'], 'the message is there after the reload');
  calls[0]!.body.end(completionFrame('upon a time.') + COMPLETION_END);
  for (const page of [one, two]) {
    await page.locator('.message.bot .markdown', { hasText: 'Once upon a time.' }).waitFor();
    t.same(await replies(page), ['Once upon a time.'], 'the reply whole, no gap, no repeat');
  }

  // A dropped connection: the page follows the turn again from the last frame it saw.
  await send(one, 'Another one');
  (await call(2)).body.write(completionFrame('Part one, '));
  await one.locator('.message.bot .markdown', { hasText: 'Part one,' }).waitFor();
  app.server.closeAllConnections();
  calls[1]!.body.write(completionFrame('part two, '));
  calls[1]!.body.end(completionFrame('the end.') + COMPLETION_END);
  for (const page of [one, two]) {
    await page.locator('.message.bot .markdown', { hasText: 'the end.' }).waitFor();
    t.same(await replies(page), ['Once upon a time.', 'Part one, part two, the end.'], 'whole after the drop, in both tabs');
  }

  // Esc stops this tab's reply; the other tab shows it stopped too.
  await send(one, 'A third thing');
  (await call(3)).body.write(completionFrame('Half'));
  await two.locator('.message.bot .markdown', { hasText: 'Half' }).waitFor();
  await one.locator('.message.bot .markdown', { hasText: 'Half' }).waitFor();
  await one.keyboard.press('Escape');
  await one.locator('.message.bot.stopped', { hasText: 'Half' }).waitFor();
  await two.locator('.message.bot.stopped', { hasText: 'Half' }).waitFor();
  t.pass('stopped, and shown stopped in the other tab');

  // Regenerate: a new reply to the same message; ‹ 1/2 › shows the earlier one.
  await one.getByRole('button', { name: 'Regenerate the last reply' }).click();
  const regenerate = await call(4);
  t.equal(regenerate.messages.at(-1)?.content, 'A third thing');
  regenerate.body.end(completionFrame('A whole third.') + COMPLETION_END);
  const last = one.locator('.message.bot').last();
  await last.locator('.version-label', { hasText: '2/2' }).waitFor();
  t.match(await last.locator('.markdown').textContent(), 'A whole third.');
  await last.getByRole('button', { name: 'Earlier version' }).click();
  t.match(await last.locator('.markdown').textContent(), 'Half');
  t.equal(await last.locator('.version-label').textContent(), '1/2');
  await two.locator('.message.bot .markdown', { hasText: 'A whole third.' }).waitFor();

  // ↑ in the empty box edits the last message: the exchange is replaced, the earlier one kept.
  await one.getByLabel('Your message').focus();
  await one.getByLabel('Your message').press('ArrowUp');
  t.equal(await one.getByLabel('Your message').inputValue(), 'A third thing');
  await one.getByLabel('Your message').fill('A third thing, edited');
  await one.getByLabel('Your message').press('Enter');
  const edit = await call(5);
  t.same(
    edit.messages.slice(-2).map((message) => message.content),
    ['Part one, part two, the end.', 'A third thing, edited'],
  );
  edit.body.end(completionFrame('Edited reply.') + COMPLETION_END);
  await one.locator('.message.user', { hasText: 'A third thing, edited' }).locator('.version-label', { hasText: '2/2' }).waitFor();
  t.same(await messages(one), ['Tell me a story', 'Another one', 'A third thing, edited']);
  await two.locator('.message.user', { hasText: 'A third thing, edited' }).waitFor();

  // New conversation: undone within its few seconds; then done, in both tabs.
  await one.getByRole('button', { name: 'New conversation' }).click();
  t.equal(await one.locator('#conversation .message').count(), 0, 'cleared at once');
  await one.getByRole('button', { name: 'Undo' }).click();
  t.equal((await messages(one)).length, 3, 'undone: the conversation is back');
  await one.getByRole('button', { name: 'New conversation' }).click();
  await eventually('the other tab cleared', async () => (await two.locator('#conversation .message').count()) === 0, { timeoutMs: 15_000 });
  await one.reload();
  await one.locator('#state', { hasText: 'Ready' }).waitFor();
  t.equal(await one.locator('#conversation .message').count(), 0, 'forgotten on the service');
  t.same(problems, [], 'no script error');
});
