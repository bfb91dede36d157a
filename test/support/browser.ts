import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import tap from 'tap';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

let browser: Promise<Browser> | undefined;

/**
 * Debian's Chromium, headless, with no traffic of its own: one per test file, started at the first
 * use and closed when the file's tests are done. Starting it took a second or more of the two cores
 * for each of some thirty tests; a fresh context keeps each test's cookies and storage its own.
 */
function sharedChromium(): Promise<Browser> {
  if (browser === undefined) {
    browser = chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        // `*.test` names reach the loopback services too: an origin Chromium does not count as secure
        // (plain http, neither localhost nor an IP of loopback), as a service opened on a LAN name is.
        '--host-resolver-rules=MAP *.test 127.0.0.1',
      ],
    });
    const launched = browser;
    tap.teardown(async () => (await launched).close());
  }
  return browser;
}

/** A fresh browser context (its own cookies, storage and cache) of the file's Chromium, closed when the test ends. */
export async function launchChromium(t: { teardown(fn: () => unknown): void }): Promise<BrowserContext> {
  const context = await (await sharedChromium()).newContext({ viewport: { width: 1100, height: 760 } });
  // Room for a busy machine: Playwright's 30 s per wait once ran out in a full CI line (three test
  // files, each with its browser or services, on two cores) for a reply that takes 2 s alone.
  context.setDefaultTimeout(60_000);
  t.teardown(() => context.close());
  return context;
}

/** Holds every `POST /api/chat` of `page` until the returned release is called: a reply that is pending. */
export async function holdChats(page: Page): Promise<() => void> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/chat', async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** A fresh Chromium page on the service at `address`, once the page says the system is ready. */
export async function readyPage(
  t: { teardown(fn: () => unknown): void },
  address: string,
  viewport?: { width: number; height: number },
): Promise<Page> {
  const page = await (await launchChromium(t)).newPage();
  if (viewport) await page.setViewportSize(viewport);
  await page.goto(`${address}/`);
  await page.locator('#state', { hasText: 'Ready' }).waitFor();
  return page;
}

/** axe-core's serious and critical violations on the page as it is now, one line each (none: `[]`). */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: the page's own policy admits no inline script.
  if (!(await page.evaluate('typeof axe !== "undefined"'))) {
    await page.evaluate(readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));
  }
  return (await page.evaluate(`axe.run(document).then((result) => result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))`)) as string[];
}
