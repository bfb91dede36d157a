import t from 'tap';
import { launchChromium } from '../support/browser.js';
import { eventually } from '../../testkit/eventually.js';
import { startRealService } from '../support/real-service.js';
import { healthy, listeningProvider } from '../../testkit/provider-stand-in.js';

// The terminal with the defaults (debug on), while a real Chromium keeps the page open: its polls,
// its event stream and its assets write nothing; a chat writes a few lines that say what happened.

t.test('an open page writes no line; a chat writes a few, none with its text', async (t) => {
  const provider = await listeningProvider(t, healthy('Glad you came by.'));
  // The page polls ten times a second here: a minute's polls at the real 1 s in six seconds.
  const { service, logs } = await startRealService(
    t,
    { LLM_API_KEY: 'sk-quiet', LLM_BASE_URL: provider.baseURL, DRIFT_INTERVAL_MS: '600000' },
    { pollIntervalMs: 100 },
  );
  await eventually('the ready line', () => logs.some((line) => String(line.msg).startsWith('ready: the page is at')));
  const mark = logs.length;

  const page = await (await launchChromium(t)).newPage();
  let polls = 0;
  const asked = new Set<string>();
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    asked.add(path);
    if (path === '/api/avatar') polls += 1;
  });
  await page.goto(`${service.address}/`);
  await page.locator('#state', { hasText: 'Ready' }).waitFor();
  await eventually('60 polls of the page', () => polls >= 60, { timeoutMs: 30_000 });
  t.ok(asked.has('/api/chat/feed') && asked.has('/assets/app.js') && asked.has('/api/history'), [...asked].join(' '));
  t.same(
    logs.slice(mark).map((line) => line.msg),
    [],
    `${polls} polls, the event stream and ${asked.size} paths: no line`,
  );

  const before = logs.length;
  await page.getByLabel('Your message').fill('I love my garden, it is blooming');
  await page.getByLabel('Your message').press('Enter');
  await page.locator('.message.bot:not(.thinking)', { hasText: 'Glad you came by.' }).waitFor();
  const chatLines = await eventually('the committed line', () => {
    const lines = logs.slice(before).map((line) => String(line.msg));
    return lines.some((line) => / replied: /.test(line)) && lines;
  });
  t.match(chatLines, [
    /^chat #\w+ accepted: 32 characters, streamed$/,
    /^chat #\w+ read as (joy|sadness|anger|fear|curiosity|neutral) \((joy|sadness|anger|fear|curiosity) \d\.\d\d, neutral \d\.\d\d; sentiment positive, score \d+\)$/,
    /^chat #\w+ committed: (Circle|Triangle|Square), joy \d\.\d\d, sadness/,
    /^chat #\w+ replied: 17 characters in \d+\.\d s$/,
  ]);
  t.ok(chatLines.length <= 4, `a chat: ${chatLines.length} lines`);
  t.notMatch(JSON.stringify(logs), /my garden|Glad you came/, 'no message or reply text in the terminal');
});
