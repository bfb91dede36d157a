import { mkdirSync } from 'node:fs';
import { PassThrough, Readable } from 'node:stream';
import t from 'tap';
import { launchChromium } from '../support/browser.js';
import { COMPLETION_END, completion, completionFrame } from '../../testkit/provider-wire.js';
import { harness } from '../support/harness.js';
import { eventStream, json, offering, providerStandIn } from '../../testkit/provider-stand-in.js';

// The page in a real headless Chromium against the real app and actor system; the provider streams
// what each test step queues: a whole reply in pieces, or a stream the test writes itself.
const OUTPUT = 'test-output';

const HOSTILE =
  'Here is **bold**, <img src=x onerror="window.pwned=1"> and <script>window.pwned=2</script> [a link](javascript:window.pwned=3)';

function queuedProvider() {
  const replies: (string | PassThrough)[] = [];
  // A text reply is streamed word by word by the stand-in; a PassThrough streams what the test writes.
  const { fetch } = providerStandIn(
    offering(() => {
      const next = replies.shift() ?? 'Fine.';
      return typeof next === 'string' ? json(200, completion(next)) : eventStream(Readable.toWeb(next) as ReadableStream<Uint8Array>);
    }),
  );
  return { replies, fetch };
}

t.test('the page streams replies as Markdown (no HTML), stops, pushes the mood, keeps and forgets the history', async (t) => {
  const provider = queuedProvider();
  // A poll far slower than the test: only the pushed mood can redraw the bars in time.
  const { address, advance } = await harness(t, { system: 'real', served: true, fetch: provider.fetch, pollIntervalMs: 600_000 });
  mkdirSync(OUTPUT, { recursive: true });
  const context = await launchChromium(t);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  const outside: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(address)) outside.push(request.url());
  });
  await page.goto(`${address}/`);
  await page.locator('#state', { hasText: 'Ready' }).waitFor();

  // Markdown, and HTML in a reply never becomes an element.
  provider.replies.push(HOSTILE);
  await page.getByLabel('Your message').fill('Show me something');
  await page.getByLabel('Your message').press('Enter');
  const reply = page.locator('.message.bot:not(.thinking)').first();
  await reply.locator('strong', { hasText: 'bold' }).waitFor();
  t.equal(await page.locator('#conversation img').count(), 0, 'no <img> was made');
  t.equal(await page.locator('#conversation script').count(), 0, 'no <script> was made');
  t.equal(await page.locator('#conversation a[href^="javascript"]').count(), 0, 'no javascript: link');
  t.match(await reply.textContent(), '<img src=x onerror="window.pwned=1">', 'the HTML shows as text');
  t.equal(await page.evaluate('window.pwned'), undefined, 'nothing of the reply ran');
  await reply.and(page.locator('[aria-busy="false"]')).waitFor();
  t.pass('a complete reply is not busy: a screen reader says it, once');

  // A reply streams into its bubble, with Stop while it does; Stop keeps what came and commits nothing.
  const held = new PassThrough();
  provider.replies.push(held);
  await page.getByLabel('Your message').fill('Tell me a long story');
  await page.getByLabel('Your message').press('Enter');
  held.write(completionFrame('Once upon a *time* '));
  const streaming = page.locator('.message.bot:not(.thinking)').nth(1);
  await streaming.locator('em', { hasText: 'time' }).waitFor();
  t.equal(await streaming.getAttribute('aria-busy'), 'true', 'a growing reply is busy: a screen reader waits for it whole');
  t.equal(await page.locator('#conversation').getAttribute('aria-live'), 'polite');
  t.ok(await page.isVisible('#stop'), 'Stop shows while the reply streams');
  await page.locator('#avatar[data-activity="speaking"]').waitFor();
  t.equal(await page.locator('#avatar-figure').getAttribute('aria-busy'), 'true', 'the avatar speaks while the pieces come');
  await page.screenshot({ path: `${OUTPUT}/page-streaming.png`, fullPage: true });
  await page.click('#stop');
  await page.locator('.message.bot.stopped').waitFor();
  t.ok(await page.isHidden('#stop'), 'Stop goes once the reply has stopped');
  await page.locator('#avatar[data-activity="idle"]').waitFor();
  t.equal(await page.evaluate('document.body.dataset.activity'), 'idle', 'and is idle once it has stopped');
  t.match(await streaming.textContent(), 'Once upon a time');
  t.equal(await streaming.getAttribute('aria-busy'), 'false', 'a stopped reply is complete as it is');

  // The mood, pushed: a drift tick redraws the bars long before the next poll.
  const before = await page.evaluate("document.getElementById('joy-bar').style.width");
  advance(10_000);
  await page.waitForFunction((width) => document.getElementById('joy-bar')?.style.width !== width, before);
  t.pass('a drift redrew the bars through /api/events');

  // After a reload the history is there: the first exchange, and the stopped one as it was, marked stopped.
  await page.reload();
  await page.locator('.message.bot strong', { hasText: 'bold' }).waitFor();
  await page.locator('.message.bot.stopped').waitFor();
  t.same(
    await page.locator('#conversation .message').evaluateAll((items) => items.map((item) => item.className)),
    ['message user', 'message bot', 'message user', 'message bot stopped'],
    'the stopped reply is kept with the message that asked for it',
  );
  t.match(await page.locator('.message.bot.stopped').textContent(), 'Once upon a time');
  t.equal(await page.locator('#conversation img').count(), 0, 'the history is rendered safely too');
  await page.screenshot({ path: `${OUTPUT}/page-history.png`, fullPage: true });

  // New conversation forgets it, here at once and on the service once its undo time is over.
  const forgotten = page.waitForResponse((response) => response.url().endsWith('/api/history') && response.request().method() === 'DELETE');
  await page.click('#new-conversation');
  await page.waitForFunction(() => document.querySelectorAll('#conversation .message').length === 0);
  await forgotten;
  // Listening before the reload: the page reads the history as it loads, maybe before Ready shows.
  const historyRead = page.waitForResponse((response) => response.url().endsWith('/api/history') && response.request().method() === 'GET');
  await page.reload();
  await historyRead;
  await page.locator('#conversation[aria-busy="false"]').waitFor({ state: 'attached' });
  await page.locator('#state', { hasText: 'Ready' }).waitFor();
  t.equal(await page.locator('#conversation .message').count(), 0, 'a forgotten conversation stays forgotten');

  held.end(COMPLETION_END);
  t.same(outside, [], 'no request leaves the service (markdown-it comes from it)');
  t.same(problems, []);
});
