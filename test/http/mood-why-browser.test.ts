import { mkdirSync } from 'node:fs';
import t from 'tap';
import { readyPage, seriousAxeViolations } from '../support/browser.js';
import { readyApp } from '../support/harness.js';

// Issue 29, "a mood that explains itself": in real Chromium, against the real actor system and the
// shipped appraisal, a bar's name focused or hovered says what moved that emotion lately, telling the
// visitor's own messages from someone else's and from the drift.
const OUTPUT = 'test-output';

t.test('focusing or hovering a bar shows what moved it: your message, someone’s message, the drift', async (t) => {
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
  await page.getByRole('button', { name: 'Anger' }).focus();
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

  await page.locator('.emotion.fear').hover();
  await panel.getByText('What moved fear lately').waitFor();
  t.match((await panel.textContent()) ?? '', /others’ messages \+0\.\d\d \(1\)/, 'fear rose by someone else’s message');

  const why = (await (await fetch(`${address}/api/mood/why`)).json()) as { changes: { kind: string; delta: Record<string, number> }[] };
  const drift = why.changes.find((change) => change.kind === 'drift')!;
  const drifted = Object.keys(drift.delta).find((name) => Math.abs(drift.delta[name]!) >= 0.01)!;
  await page.locator(`.emotion.${drifted}`).hover();
  await panel.getByText(`What moved ${drifted} lately`).waitFor();
  t.match((await panel.textContent()) ?? '', /drift [+−]0\.\d\d \(1\)/, `the drift tick is counted for ${drifted}`);

  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Fear' }).focus();
  await page.keyboard.press('Escape');
  t.ok(await panel.isHidden(), 'Escape closes it');
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
