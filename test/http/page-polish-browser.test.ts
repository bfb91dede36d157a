import t, { type Test } from 'tap';
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { launchChromium, readyPage, seriousAxeViolations as axe } from '../support/browser.js';
import { FIVE_MOODS } from '../support/moods.js';
import { harness } from '../support/harness.js';

// The page as a first-time visitor finds it, in real headless Chromium against the real app, the fake
// system behind the bus: the message box, the limit, links and rich replies, an unknown path, the
// first paint, the empty state, the controls' descriptions, and axe in both themes and on a phone.
const OUTPUT = 'test-output';

async function served(t: Test, maxMessageLength = 50) {
  const setup = await harness(t, {
    system: 'fake',
    app: {
      pollIntervalMs: 100,
      timeouts: { statusMs: 500, chatMs: 2000 },
      config: { maxMessageLength, providerTimeoutMs: 50 },
    },
  });
  const address = await setup.app.listen({ host: '127.0.0.1', port: 0 });
  return { ...setup, address };
}

const box = (page: Page) => page.getByLabel('Your message');

t.test('the message box: Shift+Enter is a new line, Enter sends, and it grows to a few lines', async (t) => {
  const { system, address } = await served(t, 400);
  const page = await readyPage(t, address);
  t.equal(await box(page).evaluate((element) => element.tagName), 'TEXTAREA');
  const oneLine = (await box(page).boundingBox())?.height ?? 0;
  await box(page).click();
  await page.keyboard.type('first line');
  await page.keyboard.press('Shift+Enter');
  await page.keyboard.type('second line');
  await page.keyboard.press('Shift+Enter');
  await page.keyboard.type('third line');
  t.equal(await box(page).inputValue(), 'first line\nsecond line\nthird line');
  t.same(system.messages, [], 'Shift+Enter sends nothing');
  const threeLines = (await box(page).boundingBox())?.height ?? 0;
  t.ok(threeLines > oneLine * 1.8, `it grew with its lines (${oneLine} px to ${threeLines} px)`);
  for (let line = 0; line < 12; line += 1) {
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type(`more ${line}`);
  }
  const manyLines = (await box(page).boundingBox())?.height ?? 0;
  t.ok(manyLines < oneLine * 8, `up to a few lines, then it scrolls (${manyLines} px)`);
  await page.keyboard.press('Enter');
  await page.locator('.message.bot:not(.thinking)').waitFor();
  t.match(system.messages[0], /^first line\nsecond line\nthird line\nmore 0/, 'Enter sent the lines as typed');
  t.match(
    await page.locator('.message.user p').textContent(),
    /^first line\nsecond line\n/,
    'shown as typed (the bubble keeps its line breaks)',
  );
  t.equal(await box(page).inputValue(), '');
  t.ok(((await box(page).boundingBox())?.height ?? 0) < oneLine * 1.5, 'and back to one line');
});

t.test('a message over the limit is refused with a visible count, never cut', async (t) => {
  const { system, address } = await served(t, 50);
  const page = await readyPage(t, address);
  const pasted = `${'x'.repeat(59)}é`;
  await box(page).fill(pasted);
  const count = page.locator('#message-count');
  await count.filter({ hasText: '60 of 50 characters: 10 too many' }).waitFor();
  t.ok(await count.isVisible(), 'the count is on screen');
  t.ok(await page.isDisabled('#send'), 'Send is off while it is too long');
  t.equal(await box(page).getAttribute('aria-invalid'), 'true');
  t.match(await box(page).getAttribute('aria-describedby'), 'message-count', 'the box is described by its count');
  await box(page).press('Enter');
  t.equal(await box(page).inputValue(), pasted, 'nothing was cut');
  t.same(system.messages, [], 'nothing was sent');
  mkdirSync(OUTPUT, { recursive: true });
  await page.screenshot({ path: `${OUTPUT}/page-over-limit.png` });
  await box(page).fill('x'.repeat(46));
  await count.filter({ hasText: /^46 of 50 characters\.$/ }).waitFor();
  t.notOk(await page.isDisabled('#send'), 'near the limit: counted, and it can go');
  await box(page).fill('short');
  t.equal(await count.textContent(), '', 'far from it: no count');
  await box(page).press('Enter');
  await page.locator('.message.bot:not(.thinking)').waitFor();
  t.same(system.messages, ['short']);
});

const RICH = [
  'See [the docs](https://example.com/docs) or https://example.org/plain.',
  '',
  '> A quote, set apart.',
  '',
  '| Emotion | Level |',
  '|---|---|',
  '| joy | high |',
  '| fear | low |',
  '',
  '```',
  'const mood = "code";',
  '```',
  '',
  'And `inline code`.',
].join('\n');

t.test(
  'links open a new tab (noopener noreferrer); tables, quotes and code are styled in both themes; axe finds nothing serious',
  async (t) => {
    const { system, address } = await served(t, 400);
    const page = await readyPage(t, address);
    system.chatBehaviour = { kind: 'reply', response: RICH };
    await box(page).fill('show me everything');
    await box(page).press('Enter');
    const reply = page.locator('.message.bot:not(.thinking)');
    await reply.locator('table').waitFor();
    const links = await reply
      .locator('a')
      .evaluateAll((anchors) => anchors.map((a) => [a.getAttribute('href'), a.getAttribute('target'), a.getAttribute('rel')]));
    t.same(links, [
      ['https://example.com/docs', '_blank', 'noopener noreferrer'],
      ['https://example.org/plain', '_blank', 'noopener noreferrer'],
    ]);
    mkdirSync(OUTPUT, { recursive: true });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const styles = (await page.evaluate(`(() => {
      const reply = document.querySelector('.message.bot .markdown');
      const css = (selector) => getComputedStyle(reply.querySelector(selector));
      return {
        quote: css('blockquote').borderLeftStyle + ' ' + css('blockquote').borderLeftWidth,
        cell: css('td').borderTopStyle,
        head: css('th').backgroundColor,
        pre: css('pre').backgroundColor,
        code: css('p code').backgroundColor,
        bubble: getComputedStyle(reply.closest('.message')).backgroundColor,
      };
    })()`)) as Record<string, string>;
      t.equal(styles.quote, 'solid 4px', `${scheme}: the quote has its bar`);
      t.equal(styles.cell, 'solid', `${scheme}: the table has its lines`);
      for (const part of ['head', 'pre', 'code'] as const) {
        t.not(styles[part], 'rgba(0, 0, 0, 0)', `${scheme}: ${part} has its background`);
        t.not(styles[part], styles.bubble, `${scheme}: ${part} stands out from the bubble`);
      }
      t.same(await axe(page), [], `${scheme}: no serious or critical violation`);
      await page.screenshot({ path: `${OUTPUT}/page-rich-${scheme}.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 390, height: 844 });
    const scrollWidth = Number(await page.evaluate('document.documentElement.scrollWidth'));
    t.ok(scrollWidth <= 390, `a phone: the table scrolls inside its bubble, not the page (${scrollWidth} px)`);
    t.same(await axe(page), [], 'a phone, dark: no serious or critical violation');
    await page.screenshot({ path: `${OUTPUT}/page-rich-phone-dark.png`, fullPage: true });
    await page.emulateMedia({ colorScheme: 'light' });
    t.same(await axe(page), [], 'a phone, light: no serious or critical violation');
    await page.screenshot({ path: `${OUTPUT}/page-rich-phone-light.png`, fullPage: true });
  },
);

t.test('an unknown path: a page for browsers, JSON for API clients', async (t) => {
  const { address } = await served(t);
  const page = await (await launchChromium(t)).newPage();
  const answer = await page.goto(`${address}/no/such/page`);
  t.equal(answer?.status(), 404);
  t.match(answer?.headers()['content-type'], /^text\/html/);
  t.equal(await page.locator('h1').textContent(), 'There is no page here');
  t.match(await page.locator('main').textContent(), '/no/such/page');
  t.equal(await page.getByRole('link', { name: 'Go to the chat' }).getAttribute('href'), '/');
  t.same(await axe(page), [], 'axe: nothing serious');
  mkdirSync(OUTPUT, { recursive: true });
  await page.screenshot({ path: `${OUTPUT}/not-found.png` });
  for (const accept of [undefined, '*/*', 'application/json', 'application/json, text/html;q=0.5']) {
    const response = await fetch(`${address}/no/such/page`, { headers: accept ? { accept } : {} });
    t.equal(response.status, 404, String(accept));
    t.match(await response.json(), { error: /not found/ }, `Accept ${String(accept)}: JSON`);
  }
  const asset = await page.goto(`${address}/assets/nothing.js`);
  t.equal(asset?.status(), 404);
  t.equal(await page.locator('h1').textContent(), 'There is no page here', 'a missing asset, asked for by a browser, too');
});

t.test('the first paint shows the current shape and mood: no Circle morphing into it', async (t) => {
  const { system, address } = await served(t);
  system.emotions = FIVE_MOODS.sadness;
  system.avatarShape = 'Square';
  const page = await (await launchChromium(t)).newPage();
  // Before any of the page's scripts: every shape the avatar ever has, and the picture as parsed.
  await page.addInitScript(`
    window.shapesSeen = [];
    new MutationObserver(() => {
      const svg = document.getElementById('avatar');
      const shape = svg && svg.getAttribute('data-shape');
      if (shape && window.shapesSeen[window.shapesSeen.length - 1] !== shape) window.shapesSeen.push(shape);
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-shape'] });
    document.addEventListener('readystatechange', () => {
      if (document.readyState !== 'interactive' || window.parsed) return;
      const svg = document.getElementById('avatar');
      window.parsed = {
        name: svg.getAttribute('aria-label'),
        words: document.getElementById('avatar-mood').textContent,
        sadness: document.getElementById('sadness-value').textContent,
      };
    });
    // The first frame, painted once the styles are in.
    requestAnimationFrame(function first() {
      const bar = document.getElementById('sadness-bar');
      if (!bar) return requestAnimationFrame(first);
      const svg = document.getElementById('avatar');
      window.painted = {
        bar: Math.round((bar.getBoundingClientRect().width / bar.parentElement.getBoundingClientRect().width) * 100),
        fill: getComputedStyle(svg.querySelector('.shape-square')).fill,
        drawnByScript: svg.style.length > 0,
      };
    });
  `);
  await page.goto(`${address}/`);
  await page.locator('#state', { hasText: 'Ready' }).waitFor();
  t.same(
    await page.evaluate('window.parsed'),
    { name: 'Square, mostly sadness', words: 'mostly sadness', sadness: '0.85' },
    'the HTML itself names the mood',
  );
  const painted = (await page.evaluate('window.painted')) as { bar: number; fill: string; drawnByScript: boolean };
  t.equal(painted.bar, 85, `the first frame draws the bar (script drawn yet: ${painted.drawnByScript})`);
  t.not(painted.fill, 'rgb(138, 147, 168)', `and the body in the mood's colour (${painted.fill}), not the neutral grey`);
  t.same(await page.evaluate('window.shapesSeen'), ['Square'], 'the avatar was a Square from the start');
});

t.test('an empty conversation says what the page is and what to try; the controls say what they do', async (t) => {
  const { address } = await served(t);
  const page = await readyPage(t, address);
  const welcome = page.locator('#empty-state');
  t.ok(await welcome.isVisible(), 'a new visitor sees it');
  const text = (await welcome.textContent()) ?? '';
  t.match(text, /one mood, shared by everyone who chats here/i);
  t.match(text, /your conversation is your own/i);
  t.match(text, /Try “/);
  t.match(text, /read from English/);
  const description = (selector: string) =>
    page.locator(selector).evaluate((element) =>
      (element.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' '),
    );
  t.match(await description('#new-conversation'), /Forgets your messages.*shared mood stays/);
  t.match(await description('#stop'), /Stops the reply; what it wrote so far stays/);
  t.match(await description('#message'), /Enter sends, Shift\+Enter starts a new line/);
  mkdirSync(OUTPUT, { recursive: true });
  await page.screenshot({ path: `${OUTPUT}/page-empty.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  t.same(await axe(page), [], 'dark, empty: nothing serious');
  await page.screenshot({ path: `${OUTPUT}/page-empty-dark.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${OUTPUT}/page-empty-phone-dark.png`, fullPage: true });

  await box(page).fill('Hello');
  await box(page).press('Enter');
  await page.locator('.message.bot:not(.thinking)').waitFor();
  t.ok(await welcome.isHidden(), 'gone once the conversation has begun');
  await page.click('#new-conversation');
  await welcome.waitFor();
  t.pass('back once it is forgotten');
});
