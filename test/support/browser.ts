import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium, headless, with a fresh profile and no traffic of its own. */
export async function launchChromium(t: { teardown(fn: () => unknown): void }): Promise<BrowserContext> {
  const profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
    viewport: { width: 1100, height: 760 },
  });
  t.teardown(async () => {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  });
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
