// `hub webhooks inspect` from the built CLI, over the journal of a real `listen`, in headless Chromium:
// the token, live arrival, filters, the detail, Replay's verdicts, the keyboard, axe, and no secret byte.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import t, { type Test } from 'tap';
import WebhooksDeliveries from '../../src/cli/commands/webhooks/deliveries.js';
import { eventually } from '../../testkit/eventually.js';
import { startFakeHub } from '../../testkit/fake-hub.js';
import { freePort } from '../../testkit/free-port.js';
import { startListen } from '../../testkit/listen-process.js';
import { launchChromium, seriousAxeViolations as axe } from '../support/browser.js';
import { ROOT, requireBuilt } from '../support/built-cli.js';
import { runWebhooksCommand } from '../support/run-webhooks-command.js';
import { fixtureText } from '../webhooks/helpers.js';
import { testDir } from '../support/test-dir.js';
import { untraced } from '../../testkit/untraced.js';

const OUTPUT = 'test-output';
const TOKEN = 'hf_inspect_token';

/** A forward target whose status the test sets; its answer echoes the secret it was sent, which must go no further. */
async function echoingTarget(t: Test) {
  let status = 201;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () =>
      response
        .writeHead(status, { 'content-type': 'application/json' })
        .end(JSON.stringify({ status, echo: request.headers['x-webhook-secret'] ?? null })),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    set: (next: number) => {
      status = next;
    },
  };
}

function startInspect(args: string[], env: NodeJS.ProcessEnv): { child: ChildProcess; url: Promise<string>; stderr: () => string } {
  const child = spawn(...untraced(process.execPath, ['bin/run.js', 'webhooks', 'inspect', ...args]), {
    cwd: ROOT,
    env: { PATH: process.env.PATH, NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  const url = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const found = /^Open (http:\/\/\S+)$/.exec(line)?.[1];
      if (found) resolve(found);
    });
    child.on('exit', () => reject(new Error(`inspect exited: ${stderr}`)));
  });
  return { child, url, stderr: () => stderr };
}

t.test('the inspector: token, live deliveries, filters, the detail, Replay verdicts, keyboard, axe, no secret', async (t) => {
  requireBuilt();
  mkdirSync(OUTPUT, { recursive: true });
  const hub = await startFakeHub({ token: TOKEN });
  t.teardown(() => hub.close());
  const dir = testDir(t, {});
  const journal = join(dir, 'deliveries.jsonl');
  const target = await echoingTarget(t);
  const port = await freePort();
  const listen = startListen(
    [
      ...['--watch', 'model:gpt2', '--forward-to', target.url, '--journal', journal],
      ...['--tunnel', 'none', '--port', String(port), '--public-url', `http://127.0.0.1:${port}`],
    ],
    { HF_ENDPOINT: hub.url, HF_TOKEN: TOKEN, HOME: dir, XDG_CACHE_HOME: join(dir, 'cache') },
  );
  t.teardown(() => void listen.child.kill('SIGKILL'));
  const webhook = hub.webhooks.get(await listen.created())!;
  const secret = webhook.secret!;
  let sent = 0;
  const deliver = (fixture: Parameters<typeof fixtureText>[0]) =>
    fetch(webhook.url!, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-secret': secret, 'webhook-id': `delivery-${++sent}` },
      body: fixtureText(fixture),
    });
  t.equal((await deliver('repo-content-update')).status, 201);
  target.set(500);
  t.equal((await deliver('comment-created')).status, 500);
  await eventually('two journal lines', () => readFileSync(journal, 'utf8').trim().split('\n').length === 2);

  const inspect = startInspect(['--journal', journal], { WEBHOOK_SECRET: secret });
  t.teardown(() => void inspect.child.kill('SIGKILL'));
  const url = await inspect.url;
  const base = new URL(url).origin;
  t.match(url, /^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{32}$/, 'on loopback, with a random token');
  for (const path of ['/', '/api/deliveries', '/assets/inspect.js', '/api/events', '/?token=wrong'])
    t.equal((await fetch(`${base}${path}`)).status, 401, `${path} without the token: 401`);
  const token = new URL(url).searchParams.get('token')!;
  const authorized = { authorization: `Bearer ${token}` };

  const context = await launchChromium(t);
  const page = await context.newPage();
  await page.setViewportSize({ width: 1280, height: 860 });
  const seen: string[] = [];
  page.on('response', (response) => {
    if (!response.url().endsWith('/api/events'))
      void response.text().then(
        (text) => seen.push(text),
        () => undefined,
      );
  });
  await page.goto(url);
  t.equal(new URL(page.url()).search, '', 'the token leaves the address bar');
  const rows = page.locator('#deliveries tbody tr');
  await eventually('two rows', async () => (await rows.count()) === 2);
  await page.locator('#live', { hasText: 'Live' }).waitFor();
  t.match(await rows.nth(0).textContent(), /discussion\.comment:create.*500 failed/, 'newest first');
  t.match(await rows.nth(1).textContent(), /repo\.content:update.*space Wauplin\/gradio-user-history.*201 delivered/);

  // Live: a delivery that listen journals shows without a reload.
  target.set(200);
  t.equal((await deliver('repo-config-update')).status, 200);
  await eventually('the third row, live', async () => (await rows.count()) === 3);
  t.match(await rows.nth(0).textContent(), /repo\.config:update/);

  // Filters. Each waits for its own one row, not any one row: the filter before may also have shown one.
  const onlyRow = (what: string, expected: RegExp) =>
    eventually(what, async () => (await rows.count()) === 1 && expected.test((await rows.nth(0).textContent()) ?? ''));
  await page.locator('select[name=status]').selectOption('failed');
  await onlyRow('one failed row', /500 failed/);
  await page.locator('select[name=status]').selectOption('');
  await page.locator('input[name=repo]').fill('gradio-user');
  await onlyRow('the repository filter', /space Wauplin\/gradio-user-history/);
  await page.locator('input[name=repo]').fill('');
  await page.locator('input[name=q]').fill('refs/pr/5');
  await onlyRow('the free text filter', /repo\.content:update/);
  await page.locator('input[name=q]').fill('');
  await page.locator('input[name=event]').fill('discussion.comment');
  await onlyRow('the event filter', /discussion\.comment:create/);
  await page.locator('input[name=event]').fill('');
  await eventually('all rows again', async () => (await rows.count()) === 3);
  t.match(await page.locator('#count').textContent(), /^3 of 3 deliveries \(filtered in [\d.]+ ms on the server\)$/);

  // The failed one, opened with the keyboard: its detail, then Replay to the forward target, now passing.
  await page.locator('#deliveries tbody tr', { hasText: '500 failed' }).locator('a').focus();
  await page.keyboard.press('Enter');
  await page.locator('#detail-title', { hasText: 'delivery-2' }).waitFor();
  t.equal(await page.evaluate('document.activeElement.id'), 'detail-title', 'focus moves to the detail');
  t.match(await page.locator('#facts').textContent(), target.url, 'the forward target');
  t.match(await page.locator('#answer-facts').textContent(), /500 failed in [\d.]+ ms/);
  t.match(await page.locator('#answer').textContent(), /"echo":"\[redacted\]"/, 'the answer, with the echoed secret taken out');
  t.match(await page.locator('#payload').textContent(), /discussion/);
  t.ok((await page.locator('#payload details').first().getAttribute('open')) !== null, 'the payload, collapsible');
  await page.locator('#payload summary').first().click();
  t.equal(await page.locator('#payload details').first().getAttribute('open'), null, 'folds');
  await page.locator('#payload summary').first().click();
  await page.locator('#replay-form button').focus();
  await page.keyboard.press('Enter');
  await page.locator('#verdict', { hasText: 'fixed' }).waitFor();
  t.match(await page.locator('#replays').textContent(), /fixed \(200 in [\d.]+ ms, to http:\/\/127\.0\.0\.1:\d+\/hook, by inspect\)/);
  await eventually('the verdict in the list', async () =>
    /fixed/.test((await page.locator('#deliveries tbody tr', { hasText: 'discussion.comment' }).textContent()) ?? ''),
  );

  // Diff against the first delivery.
  await page
    .locator('#diff-form select')
    .selectOption({ label: (await page.locator('#diff-form option', { hasText: 'repo.content' }).textContent())! });
  await page.locator('#diff-form button').click();
  await page.locator('#diff-summary', { hasText: 'differences' }).waitFor();
  t.match(await page.locator('#diff').textContent(), /event\.scope.*changed.*"repo\.content".*"discussion\.comment"/s);

  await page.screenshot({ path: `${OUTPUT}/inspect-detail-light.png`, fullPage: true });
  t.same(await axe(page), [], 'light: no serious or critical violation');
  await page.emulateMedia({ colorScheme: 'dark' });
  t.same(await axe(page), [], 'dark: no serious or critical violation');
  await page.screenshot({ path: `${OUTPUT}/inspect-detail-dark.png`, fullPage: true });

  // The one that passed, replayed to a target that now fails: regressed.
  target.set(503);
  await page.locator('#deliveries tbody tr', { hasText: 'repo.content' }).locator('a').click();
  await page.locator('#detail-title', { hasText: 'delivery-1' }).waitFor();
  await page.locator('#replay-form button').click();
  await page.locator('#verdict', { hasText: 'regressed' }).waitFor();
  // And to a URL given instead, which passes: still passing.
  const other = await echoingTarget(t);
  await page.locator('#replay-form input').fill(other.url);
  await page.locator('#replay-form button').click();
  await page.locator('#verdict', { hasText: 'still passing' }).waitFor();
  await page.setViewportSize({ width: 390, height: 844 });
  const scrollWidth = Number(await page.evaluate('document.documentElement.scrollWidth'));
  t.ok(scrollWidth <= 390, `a phone: the list scrolls in its box, not the page (${scrollWidth} px)`);
  t.same(await axe(page), [], 'a phone, dark: no serious or critical violation');
  await page.screenshot({ path: `${OUTPUT}/inspect-phone-dark.png`, fullPage: true });

  const table = await runWebhooksCommand(WebhooksDeliveries, ['--journal', journal], { env: {} });
  t.match(table.stdout, /delivery-2 .* 500 +[\d.]+ +fixed \(200\)/, 'the verdict in `hub webhooks deliveries`');
  t.match(table.stdout, /delivery-1 .* 201 +[\d.]+ +still passing \(201\)/);

  // No secret byte anywhere: every page answer the browser got, and each API answer.
  const { deliveries } = (await (await fetch(`${base}/api/deliveries`, { headers: authorized })).json()) as {
    deliveries: { id: string }[];
  };
  for (const { id } of deliveries) {
    seen.push(await (await fetch(`${base}/api/deliveries/${id}`, { headers: authorized })).text());
    seen.push(await (await fetch(`${base}/api/deliveries/${id}/diff?with=${deliveries[0]!.id}`, { headers: authorized })).text());
  }
  seen.push(await page.content());
  t.ok(seen.length > 10, `${seen.length} answers read`);
  t.notOk(
    seen.some((text) => text.includes(secret)),
    'the secret is in no answer of the page or its API',
  );
  t.notMatch(readFileSync(journal, 'utf8'), secret, 'nor in the journal, though the target echoed it');

  inspect.child.kill('SIGINT');
  await eventually('inspect to stop', () => inspect.child.exitCode !== null);
  t.equal(inspect.child.exitCode, 0, 'SIGINT: exit 0');
  listen.child.kill('SIGINT');
  t.equal(await listen.exited(), 0);
});
