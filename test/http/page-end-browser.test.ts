import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { launchChromium, seriousAxeViolations as axe } from '../support/browser.js';
import { eventually } from '../../testkit/eventually.js';
import { COMPLETION_END, completionFrame } from '../../testkit/provider-wire.js';
import { heldCalls } from '../../testkit/held-completions.js';
import { START, harness } from '../support/harness.js';

// Issue 39 in real headless Chromium, on the real actor system, at the two sizes people use
// (1280 x 860, 390 x 844): the conversation's end stays in view (measured, not eyeballed), one turn
// at a time whatever the reload, hints as statuses, the over-limit count in the window, the theme
// switch (remembered; axe in each theme and on a phone), copy buttons and the messages' times.
const OUTPUT = 'test-output';
const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };

const { calls, fetch } = heldCalls();
// Replies held for as long as the steps take: the chat's deadline far off.
const served = harness(t, {
  system: 'real',
  served: true,
  fetch,
  pollIntervalMs: 600_000,
  env: { LLM_TIMEOUT_MS: '120000', MAX_MESSAGE_LENGTH: '300' },
});
let context: BrowserContext | undefined;
let answered = 0;

/** A fresh visitor (no cookie) on the page at `viewport`, once it says it is ready. */
async function visitor(test: Test, viewport: { width: number; height: number }): Promise<Page> {
  const { address } = await served;
  context ??= await launchChromium(t);
  await context.clearCookies();
  const page = await context.newPage();
  // Closed after each test: a browser opens at most six connections to a server, for all its pages.
  test.teardown(() => page.close());
  await page.setViewportSize(viewport);
  await page.goto(`${address}/`);
  await page.locator('#state', { hasText: 'Ready' }).waitFor();
  return page;
}

const box = (page: Page) => page.getByLabel('Your message');

/** Sends `text`; returns the provider call that answers it (the next one). */
async function send(page: Page, text: string) {
  await box(page).fill(text);
  await box(page).press('Enter');
  answered += 1;
  const n = answered;
  return eventually(`provider call ${n}`, () => calls[n - 1]);
}

/** Sends `text` and answers it with `reply` whole; resolves once the page shows the reply's buttons. */
async function exchange(page: Page, text: string, reply: string): Promise<void> {
  (await send(page, text)).body.end(completionFrame(reply) + COMPLETION_END);
  await page.getByRole('button', { name: 'Regenerate the last reply' }).waitFor();
  await page.locator('#send:not([disabled])').waitFor();
}

/** A reply of a few paragraphs, long enough that six of them overflow the conversation's box. */
const LONG_REPLY = (n: number) =>
  [
    `Reply ${n}, first paragraph, which says a little.`,
    'A second paragraph, a bit longer than the first one was.',
    `The last line of reply ${n}.`,
  ].join('\n\n');

/** Where the last reply's last line and its buttons are, against the conversation's visible area and the window. */
async function endInView(page: Page) {
  return (await page.evaluate(`(() => {
    const list = document.getElementById('conversation');
    const area = list.getBoundingClientRect();
    const visibleBottom = area.top + list.clientHeight;
    const last = [...list.querySelectorAll('.message.bot:not(.thinking)')].at(-1);
    const lines = last.querySelector('.markdown').getClientRects();
    const text = last.querySelector('.markdown > :last-child').getBoundingClientRect();
    const buttons = [...last.querySelectorAll(':scope > button')].map((b) => b.getBoundingClientRect());
    const lowest = Math.max(text.bottom, ...buttons.map((b) => b.bottom));
    return {
      buttons: buttons.length,
      lowest: Math.round(lowest),
      top: Math.round(text.top),
      visibleTop: Math.round(area.top),
      visibleBottom: Math.round(visibleBottom),
      windowBottom: window.innerHeight,
      overflows: list.scrollHeight > list.clientHeight,
      fromEnd: Math.round(list.scrollHeight - list.scrollTop - list.clientHeight),
      lines: lines.length,
    };
  })()`)) as {
    buttons: number;
    lowest: number;
    top: number;
    visibleTop: number;
    visibleBottom: number;
    windowBottom: number;
    overflows: boolean;
    fromEnd: number;
  };
}

for (const [size, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  t.test(
    `${size}: the end stays in view after each reply, while one grows, after a reload; "New reply ↓" when reading above`,
    async (t) => {
      const page = await visitor(t, viewport);
      for (let n = 1; n <= 6; n += 1) {
        await exchange(page, `Message ${n}`, LONG_REPLY(n));
        const end = await endInView(page);
        t.ok(
          end.lowest <= end.visibleBottom && end.top >= end.visibleTop,
          `after exchange ${n}: the last line and ${end.buttons} buttons inside the list (${end.lowest} ≤ ${end.visibleBottom})`,
        );
        t.ok(
          end.visibleBottom <= end.windowBottom,
          `and the list's visible area inside the window (${end.visibleBottom} ≤ ${end.windowBottom})`,
        );
      }
      const six = await endInView(page);
      t.ok(six.overflows, 'six exchanges are longer than the box');
      t.equal(six.buttons, 2, 'Copy and Regenerate under the last reply');
      mkdirSync(OUTPUT, { recursive: true });
      await page.screenshot({ path: `${OUTPUT}/end-in-view-${size}.png` });

      // A reply growing while the visitor reads further up: the list stays where they are, the button says so.
      const growing = await send(page, 'Message 7');
      growing.body.write(completionFrame('Seventh reply, '));
      await page.locator('.message.bot .markdown', { hasText: 'Seventh reply' }).waitFor();
      t.ok((await endInView(page)).fromEnd <= 2, 'while it grows: at the end');
      await page.locator('#conversation').evaluate((list) => list.scrollTo({ top: 0 }));
      await eventually('the scroll seen', () => page.evaluate('document.getElementById("conversation").scrollTop === 0'));
      growing.body.write(completionFrame('and it goes on.\n\nAnd on, a second paragraph.'));
      await page.locator('.message.bot .markdown', { hasText: 'And on, a second paragraph' }).waitFor();
      const toEnd = page.getByRole('button', { name: 'New reply ↓' });
      await toEnd.waitFor();
      t.equal(await page.locator('#conversation').evaluate((list) => list.scrollTop), 0, 'the visitor stays where they read');
      await page.screenshot({ path: `${OUTPUT}/new-reply-button-${size}.png` });
      await toEnd.click();
      t.ok((await endInView(page)).fromEnd <= 2, 'the button takes them to the end');
      t.ok(await toEnd.isHidden(), 'and goes');
      growing.body.end(completionFrame(' The end of seven.') + COMPLETION_END);
      await page.getByRole('button', { name: 'Regenerate the last reply' }).waitFor();
      const finished = await endInView(page);
      t.ok(
        finished.lowest <= finished.visibleBottom,
        `ended: its last line and buttons in view (${finished.lowest} ≤ ${finished.visibleBottom})`,
      );

      await page.reload();
      await page.locator('#state', { hasText: 'Ready' }).waitFor();
      await page.getByRole('button', { name: 'Regenerate the last reply' }).waitFor();
      const reloaded = await endInView(page);
      t.ok(
        reloaded.fromEnd <= 2 && reloaded.lowest <= reloaded.visibleBottom,
        `after a reload: at the end (${reloaded.fromEnd} px from it), the last reply's buttons in view`,
      );
    },
  );
}

/** How many times a bubble shows "(stopped)": in its rendered text, and in any generated content of its parts. */
const saidStopped = (bubble: Locator) =>
  bubble.evaluate((item) => {
    // biome-ignore lint/performance/useDomNodeTextContent: the text as rendered, a hidden note not counted
    let said = ((item as HTMLElement).innerText.match(/\(stopped\)/g) ?? []).length;
    for (const part of [item, ...item.querySelectorAll('*')]) {
      for (const pseudo of ['::before', '::after']) if (getComputedStyle(part, pseudo).content.includes('stopped')) said += 1;
    }
    return said;
  });

t.test('one turn at a time after a reload: Stop shows and stops it, Send waits; "(stopped)" once', async (t) => {
  const page = await visitor(t, DESKTOP);
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  const call = await send(page, 'Tell me something long');
  call.body.write(completionFrame('It begins'));
  await page.locator('.message.bot .markdown', { hasText: 'It begins' }).waitFor();
  await page.reload();
  await page.locator('.message.bot .markdown', { hasText: 'It begins' }).waitFor();
  const stop = page.getByRole('button', { name: 'Stop' });
  await stop.waitFor();
  t.ok(await page.isDisabled('#send'), 'Send is off while the re-attached reply grows');
  await box(page).fill('Meanwhile');
  await box(page).press('Enter');
  t.equal(await box(page).inputValue(), 'Meanwhile', 'Enter sends nothing while it runs: the text stays');
  call.body.write(completionFrame(', and goes on'));
  await page.locator('.message.bot .markdown', { hasText: 'and goes on' }).waitFor();
  await stop.click();
  const stopped = page.locator('.message.bot.stopped');
  await stopped.waitFor();
  t.equal(await saidStopped(stopped), 1, '"(stopped)" said once');
  await page.locator('#send:not([disabled])').waitFor();
  t.ok(await stop.isHidden(), 'Stop goes once it has stopped');
  await page.reload();
  await page.locator('.message.bot.stopped').waitFor();
  t.equal(await saidStopped(page.locator('.message.bot.stopped')), 1, 'once after a reload too');
  t.same(problems, [], 'no script error');
});

t.test('hints are statuses, not errors; over the limit, the count and Send stay in the window', async (t) => {
  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    const page = await visitor(t, viewport);
    await exchange(page, 'Hello', 'Hi.');
    await box(page).fill('');
    await box(page).press('Enter');
    const hint = page.getByRole('status').filter({ hasText: 'Please type a message first.' });
    await hint.waitFor();
    t.equal(await page.locator('.message.error').count(), 0, `${size}: no bubble titled Error`);
    t.equal(await hint.getAttribute('id'), 'composer-hint');
    t.not(
      await hint.evaluate((element) => getComputedStyle(element).color),
      await page.locator('body').evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--danger-text')),
      'in the muted colour, not the danger one',
    );
    await box(page).press('ArrowUp');
    await page.getByRole('status').filter({ hasText: 'Editing your last message' }).waitFor();
    t.equal(await page.locator('.message.error').count(), 0, `${size}: the edit hint is no error either`);
    await box(page).press('Escape');

    await box(page).fill(`${'a long line of text '.repeat(20)}\n`.repeat(3));
    const count = page.locator('#message-count', { hasText: 'too many' });
    await count.waitFor();
    const [countBox, sendBox] = await Promise.all([count.boundingBox(), page.locator('#send').boundingBox()]);
    t.ok(countBox && countBox.y + countBox.height <= viewport.height, `${size}: the count is in the window (${JSON.stringify(countBox)})`);
    t.ok(sendBox && sendBox.y + sendBox.height <= viewport.height, `${size}: so is Send (${JSON.stringify(sendBox)})`);
    t.equal(await page.evaluate('window.scrollY'), 0, `${size}: without scrolling the page`);
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: `${OUTPUT}/over-limit-${size}.png` });
  }
});

t.test('the theme switch: system, light, dark, remembered; axe finds nothing serious in each, nor on a phone', async (t) => {
  const page = await visitor(t, DESKTOP);
  await exchange(page, 'Show me some code', 'Here:\n\n```\nconst x = 1;\n```\n\n> quoted');
  const background = () => page.evaluate('getComputedStyle(document.body).backgroundColor');
  const theme = page.getByLabel('Theme');
  t.equal(await theme.inputValue(), 'system', 'it follows the device at first');
  await page.emulateMedia({ colorScheme: 'dark' });
  const systemDark = await background();
  await page.emulateMedia({ colorScheme: 'light' });
  const systemLight = await background();
  t.not(systemDark, systemLight, 'system: the device decides');
  t.same(await axe(page), [], 'system (light): nothing serious');
  await theme.selectOption('dark');
  t.equal(await background(), systemDark, 'dark on a light device');
  t.same(await axe(page), [], 'dark: nothing serious');
  await page.screenshot({ path: `${OUTPUT}/theme-dark.png` });
  await page.reload();
  await page.locator('#state', { hasText: 'Ready' }).waitFor();
  t.equal(await theme.inputValue(), 'dark', 'remembered after a reload');
  t.equal(await page.evaluate('document.documentElement.dataset.theme'), 'dark', 'and painted so from the HTML');
  await theme.selectOption('light');
  await page.emulateMedia({ colorScheme: 'dark' });
  t.equal(await background(), systemLight, 'light on a dark device');
  t.same(await axe(page), [], 'light: nothing serious');
  await page.setViewportSize(PHONE);
  t.same(await axe(page), [], 'a phone, light: nothing serious');
  await theme.selectOption('dark');
  t.same(await axe(page), [], 'a phone, dark: nothing serious');
  await page.screenshot({ path: `${OUTPUT}/theme-phone-dark.png` });
  await theme.selectOption('system');
});

t.test('a copy button on each reply and code block, reached by the keyboard, says "Copied"; each message shows its time', async (t) => {
  const page = await visitor(t, DESKTOP);
  await context!.grantPermissions(['clipboard-read', 'clipboard-write']);
  const reply = 'Try this:\n\n```\nnpm start\n```\n\nThen **look**.';
  await exchange(page, 'How do I start it?', reply);
  const last = page.locator('.message.bot').last();
  const copyReply = last.getByRole('button', { name: 'Copy the reply' });
  await copyReply.focus();
  await page.keyboard.press('Enter');
  await last.getByRole('button', { name: 'Copied' }).waitFor();
  t.equal(await page.evaluate('navigator.clipboard.readText()'), reply, 'the reply as written');
  const copyCode = last.getByRole('button', { name: 'Copy the code' });
  await copyCode.focus();
  await page.keyboard.press('Space');
  await eventually('the code copied', async () => (await page.evaluate('navigator.clipboard.readText()')) === 'npm start\n');
  t.pass('the code block alone');
  await page.keyboard.press('Tab');
  t.equal(
    await page.evaluate('document.activeElement.matches(".message.bot > button.copy")'),
    true,
    'Tab moves on from the code’s to the reply’s',
  );

  // The same reply opened over plain http at a name (a service on the LAN): no navigator.clipboard.
  const { address } = await served;
  const lanName = 'chat-service.test';
  const cookies = await context!.cookies(address);
  await context!.addCookies(
    cookies.map(({ name, value, path, httpOnly, sameSite }) => ({ name, value, domain: lanName, path, httpOnly, sameSite })),
  );
  const onLan = await context!.newPage();
  t.teardown(() => onLan.close());
  await onLan.goto(address.replace('127.0.0.1', lanName));
  t.same(await onLan.evaluate('[window.isSecureContext, typeof navigator.clipboard]'), [false, 'undefined'], 'not a secure context');
  const copyOnLan = onLan.locator('.message.bot').last().getByRole('button', { name: 'Copy the reply' });
  await copyOnLan.focus();
  await onLan.keyboard.press('Enter');
  await onLan.locator('.message.bot').last().getByRole('button', { name: 'Copied' }).waitFor();
  t.equal(await onLan.evaluate('document.activeElement.matches(".message.bot > button.copy")'), true, 'the focus back on the button');
  // Read where the clipboard may be read: a secure page, in front (reading needs the focus).
  await page.bringToFront();
  t.equal(await page.evaluate('navigator.clipboard.readText()'), reply, 'copied all the same, as written');

  // The service's clock says START: the browser a few minutes later, then days later.
  const times = () =>
    page.locator('#conversation .message time').evaluateAll((all) => all.map((time) => [time.getAttribute('datetime'), time.textContent]));
  await page.clock.setFixedTime(new Date(Date.parse(START) + 5 * 60_000));
  await page.reload();
  await page.locator('#conversation .message time').first().waitFor();
  const today = await times();
  t.equal(today.length, 2, 'both messages have a time');
  for (const [datetime, words] of today) {
    t.equal(datetime, START, 'the time the service keeps, exactly');
    t.equal(words, '5 minutes ago', 'relative, today');
  }
  await page.clock.setFixedTime(new Date(Date.parse(START) + 3 * 24 * 3_600_000));
  await page.reload();
  await page.locator('#conversation .message time').first().waitFor();
  t.match((await times())[0]?.[1], /^Nov 21, 2026, \d\d:\d\d/, 'a date before today');
  t.same(await axe(page), [], 'axe: nothing serious');
});

t.test('the page menu: Export downloads the conversation, Import brings a ChatGPT file in, and says so', async (t) => {
  const page = await visitor(t, DESKTOP);
  await exchange(page, 'Remember this', 'Remembered.');
  const menu = page.locator('#page-menu summary');
  await menu.click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export' }).click()]);
  t.match(download.suggestedFilename(), /^emotion-hub-conversation-\d{4}-\d\d-\d\d\.json$/);
  const exported = JSON.parse(readFileSync((await download.path()) as string, 'utf8'));
  t.match(exported, {
    format: 'emotion-hub.history',
    version: 1,
    messages: [{ role: 'user', content: 'Remember this' }, { content: 'Remembered.' }],
  });

  await menu.click();
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.getByRole('button', { name: 'Import…', exact: true }).click(),
  ]);
  await chooser.setFiles(fileURLToPath(new URL('../fixtures/history-import/chatgpt-conversations.json', import.meta.url)));
  await page.getByRole('status').filter({ hasText: 'Imported 2 exchanges from ChatGPT.' }).waitFor();
  await page.locator('.message.bot', { hasText: 'Mint and parsley do well.' }).waitFor();
  t.equal(await page.locator('#conversation .message.user').count(), 3, 'appended after the conversation');

  await menu.click();
  const [again] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Import in its place…' }).click()]);
  await again.setFiles(fileURLToPath(new URL('../fixtures/history-import/open-webui-malformed.json', import.meta.url)));
  await page
    .getByRole('status')
    .filter({ hasText: /The file cannot be imported: message 1's content is not a string/ })
    .waitFor();
  t.equal(await page.locator('#conversation .message.user').count(), 3, 'a bad file changes nothing');
  t.same(await axe(page), [], 'axe: nothing serious');
});
