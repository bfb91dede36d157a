import { mkdirSync } from 'node:fs';
import t from 'tap';
import { readyPage, seriousAxeViolations } from '../support/browser.js';
import { readyApp } from '../support/harness.js';
import { eventually } from '../../testkit/eventually.js';

// Issue 29, "a mood that explains itself", and issue 39's timeline: in real Chromium, against the
// real actor system and the shipped appraisal, each emotion's button opens what moved it lately,
// telling the visitor's own messages from someone else's and from the drift, and the mood over time
// as a chart (with its summary and table), kept live by the feed.
const OUTPUT = 'test-output';

t.test('each emotion’s button shows what moved it: your message, someone’s message, the drift; and the timeline', async (t) => {
  const { advance, address } = await readyApp(t);
  const page = await readyPage(t, address);
  const box = page.getByLabel('Your message');
  await box.fill('I am furious, I hate this');
  await box.press('Enter');
  await page.locator('.message.bot:not(.thinking)').waitFor();
  advance(1000); // the clock is the test's: each change at its own time, as they come in life
  // Another visitor (no cookie of this page's) tells the shared mood something frightening.
  const other = await fetch(`${address}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message: 'I am terrified and scared' }),
  });
  t.equal(other.status, 200);
  advance(10_000); // one drift tick

  const panel = page.locator('#mood-why');
  t.ok(await panel.isHidden(), 'nothing is shown until a bar is asked');
  await page.getByRole('button', { name: 'Anger' }).click();
  await panel.getByText('What moved anger lately').waitFor();
  t.equal(await page.getByRole('button', { name: 'Anger' }).getAttribute('aria-expanded'), 'true');
  const anger = (await panel.textContent()) ?? '';
  t.match(anger, /your messages \+0\.\d\d \(1\)/, 'the visitor’s own message raised anger');
  t.match(anger, /your message, read as anger: \+0\.\d\d/);
  t.match(anger, /someone’s message, read as fear: −0\.\d\d/, 'the other visitor’s message eased it');
  t.notMatch(anger, /furious|terrified|hate|scared/, 'no word of any message');
  mkdirSync(OUTPUT, { recursive: true });
  await page.locator('.avatar-panel').screenshot({ path: `${OUTPUT}/mood-why-anger.png` });
  t.same(await seriousAxeViolations(page), [], 'axe: nothing serious with the panel open');

  await page.getByRole('button', { name: 'Fear' }).click();
  await panel.getByText('What moved fear lately').waitFor();
  t.equal(await page.getByRole('button', { name: 'Anger' }).getAttribute('aria-expanded'), 'false', 'one at a time');
  t.match((await panel.textContent()) ?? '', /others’ messages \+0\.\d\d \(1\)/, 'fear rose by someone else’s message');

  const why = (await (await fetch(`${address}/api/mood/why`)).json()) as { changes: { kind: string; delta: Record<string, number> }[] };
  const drift = why.changes.find((change) => change.kind === 'drift')!;
  const drifted = Object.keys(drift.delta).find((name) => Math.abs(drift.delta[name]!) >= 0.01)!;
  await page.locator(`#${drifted}-name`).click();
  await panel.getByText(`What moved ${drifted} lately`).waitFor();
  t.match((await panel.textContent()) ?? '', /drift [+−]0\.\d\d \(1\)/, `the drift tick is counted for ${drifted}`);

  // The timeline: five lines in the bars' colours, a marker per change told apart by kind.
  const chart = page.locator('#timeline-chart');
  await chart.locator('polyline').nth(4).waitFor();
  const drawn = (await chart.evaluate((svg) => ({
    lines: [...svg.querySelectorAll('polyline')].map((line) => [
      line.classList[1],
      getComputedStyle(line).stroke,
      line.getAttribute('points')?.split(' ').length,
    ]),
    bars: Object.fromEntries(
      ['joy', 'sadness', 'anger', 'fear', 'curiosity'].map((name) => [
        name,
        getComputedStyle(document.getElementById(`${name}-bar`)!).backgroundColor,
      ]),
    ),
    focus: svg.querySelector('.series.focus')?.classList[1],
    markers: [...svg.querySelectorAll('.marker')].map((marker) => marker.classList[1]),
  }))) as { lines: [string, string, number][]; bars: Record<string, string>; focus: string; markers: string[] };
  t.equal(drawn.lines.length, 5, 'a line per emotion');
  for (const [name, stroke, points] of drawn.lines) {
    t.equal(stroke, drawn.bars[name], `${name}: the bar's colour`);
    t.equal(points, why.changes.length + 1, `${name}: a point before the changes and after each`);
  }
  t.equal(drawn.focus, drifted, 'the emotion asked about is drawn strongest');
  t.same(drawn.markers, ['yours', 'others', 'drift'], 'your message, someone’s, the drift: each its own marker');
  const summary = (await page.locator('#timeline-summary').textContent()) ?? '';
  t.match(summary, /last 3 changes.*2 messages \(1 yours\), 1 drift tick/, 'the summary counts them');
  t.equal(await chart.getAttribute('aria-labelledby'), 'timeline-summary', 'and names the chart');
  t.match(
    await page.locator('#timeline-moves').textContent(),
    /^joy \d\.\d\d to \d\.\d\d \(messages [+−]\d\.\d\d, drift [+−]\d\.\d\d\); sadness /,
    'its description says where each emotion went, from the totals',
  );
  t.equal(await chart.getAttribute('aria-describedby'), 'timeline-moves');
  await page.getByText('The changes as a table').click();
  const rows = await page.locator('#timeline-table tbody tr').evaluateAll((all) => all.map((row) => row.children[1]?.textContent));
  t.same(rows, ['where it stood', 'your message', 'someone’s message', 'drift'], 'the table says each change');

  mkdirSync(OUTPUT, { recursive: true });
  for (const theme of ['light', 'dark'] as const) {
    await page.getByLabel('Theme').selectOption(theme);
    t.same(await seriousAxeViolations(page), [], `axe, ${theme}: nothing serious with the timeline open`);
    await page.locator('.avatar-panel').screenshot({ path: `${OUTPUT}/timeline-${theme}.png` });
  }
  await page.setViewportSize({ width: 390, height: 844 });
  t.same(await seriousAxeViolations(page), [], 'axe, a phone: nothing serious');
  await page.screenshot({ path: `${OUTPUT}/timeline-phone.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.getByLabel('Theme').selectOption('system');

  // Live: the next drift tick comes on the feed, and the open chart draws it.
  advance(10_000);
  await eventually('the tick drawn', async () => (await chart.locator('.marker.drift').count()) === 2);
  t.pass('a new change shows without asking again');

  await page.locator(`#${drifted}-name`).focus();
  await page.keyboard.press('Escape');
  t.ok(await panel.isHidden(), 'Escape closes it');
  t.equal(await page.locator(`#${drifted}-name`).getAttribute('aria-expanded'), 'false');
  await page.keyboard.press('Enter');
  await panel.getByText(`What moved ${drifted} lately`).waitFor();
  t.pass('and the keyboard opens it again');
});

t.test('the visitor sees how its message read, beside it, streamed and after a reload', async (t) => {
  const { address } = await readyApp(t);
  const page = await readyPage(t, address);
  const box = page.getByLabel('Your message');
  await box.fill('I am furious and I hate this');
  await box.press('Enter');
  const reading = page.locator('.message.user .reading');
  await reading.waitFor();
  t.match(
    await reading.textContent(),
    /^you sounded angry: (hate, furious|furious, hate)$/,
    'the done frame’s appraisal, under the message',
  );
  await box.fill('The meeting is at 3pm.');
  await box.press('Enter');
  await page.locator('.message.user .reading').nth(1).waitFor();
  t.equal(await page.locator('.message.user .reading').nth(1).textContent(), 'you sounded neutral');
  await box.fill('I am excited but scared');
  await box.press('Enter');
  await page.locator('.message.user .reading').nth(2).waitFor();
  t.equal(
    await page.locator('.message.user .reading').nth(2).textContent(),
    'you sounded happy and a little afraid: excited',
    'a second emotion the message carries',
  );
  mkdirSync(OUTPUT, { recursive: true });
  await page.locator('.chat-panel').screenshot({ path: `${OUTPUT}/reading.png` });
  await page.reload();
  await page.locator('#state', { hasText: 'Ready' }).waitFor();
  await page.locator('.message.user .reading').nth(2).waitFor();
  t.same(
    await page.locator('.message.user .reading').allTextContents(),
    [await reading.first().textContent(), 'you sounded neutral', 'you sounded happy and a little afraid: excited'],
    'the history keeps it',
  );
});
