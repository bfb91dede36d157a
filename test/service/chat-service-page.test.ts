import t from 'tap';
import { mkdirSync } from 'node:fs';
import { eventually } from '../../testkit/eventually.js';
import { readyPage } from '../support/browser.js';
import { startRealService } from '../support/real-service.js';
import { completionStream, modelList } from '../../testkit/provider-wire.js';
import { mockProviderHttp, mockedProvider } from '../../testkit/provider-nock.js';

// The whole product as a user meets it: the real service and actor system, a
// real browser, and only the OpenAI-compatible provider mocked.
mockProviderHttp(t, '127.0.0.1');

const widths = `['joy','sadness','anger','fear','curiosity'].map((name) => document.getElementById(name + '-bar').style.width)`;

t.test('with a key for an OpenAI-compatible server, the page chats and the bars move', async (t) => {
  mockedProvider().models().reply(200, modelList());
  // The page asks for a streamed reply.
  mockedProvider()
    .completions()
    .reply(200, completionStream('That makes me ', '<em>happy</em> too!'), { 'content-type': 'text/event-stream' });
  const { service } = await startRealService(t, { LLM_API_KEY: 'sk-test-page' }, { pollIntervalMs: 100 });

  const page = await readyPage(t, service.address);
  await page.locator('#curiosity-bar[style*="width"]').waitFor();
  const before = (await page.evaluate(widths)) as string[];

  await page.getByLabel('Your message').fill('I love this wonderful, happy day!');
  await page.getByLabel('Your message').press('Enter');
  await page.locator('.message.bot:not(.thinking)').waitFor();
  t.equal(await page.locator('.message.bot p').textContent(), 'That makes me <em>happy</em> too!');
  t.equal(await page.locator('#conversation em').count(), 0);
  // The bubble fills as the pieces come; the bars move when the reply is done (its `done` frame or the
  // pushed mood), which may be a moment later on a busy machine.
  const after = await eventually('joy to grow on the page', async () => {
    const now = (await page.evaluate(widths)) as string[];
    return parseFloat(now[0]!) > parseFloat(before[0]!) ? now : undefined;
  }).catch(async () => (await page.evaluate(widths)) as string[]);
  t.notSame(after, before, 'the bars moved');
  t.ok(parseFloat(after[0]!) > parseFloat(before[0]!), `joy grew: ${before[0]} → ${after[0]}`);

  await page.waitForTimeout(600); // the 0.5 s transition, for the picture
  mkdirSync('test-output', { recursive: true });
  await page.screenshot({ path: 'test-output/page-real-system.png' });
});
