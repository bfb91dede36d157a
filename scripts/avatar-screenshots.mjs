#!/usr/bin/env node
// Pictures of the avatar at several moods, for docs/avatar.md: for each mood, the real service
// (`hub serve`, built) starts from the default mood and is told a few messages, as a person would
// chat; real Chromium opens the real page, and the avatar's figure is saved as
// docs/images/avatar-<mood>.png. The model provider is a stand-in on loopback (it writes the
// replies; the service reads the messages); the drift is off so the mood stays as the chat left it.
// Run after `npm run build`: node scripts/avatar-screenshots.mjs [output folder]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

/** The messages a person types to make the avatar feel one thing (test/http/routes/mood.test.ts chats them too). */
const ONE_FEELING = JSON.parse(readFileSync(new URL('../test/fixtures/chat-messages.json', import.meta.url), 'utf8'));

/** The moods pictured, each reached by chatting these messages from the default mood. */
export const CONVERSATIONS = {
  ...ONE_FEELING,
  default: [],
  'sadness-anger': [
    'I feel so sad and lonely',
    'I am furious and I hate this',
    "I'm heartbroken",
    'This is outrageous, I hate it',
    'I miss her so much',
    'I am so angry',
  ],
  'joy-fear': ['I got the job, I am so happy!', "But I'm scared I will fail", 'I love this team', "I'm nervous about the first day"],
};

const ROOT = new URL('..', import.meta.url).pathname;
const output = process.argv[2] ?? join(ROOT, 'docs', 'images');

/** An OpenAI-compatible stand-in: every key is valid, every reply is the same line. */
function startProvider() {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const body = request.url.endsWith('/models')
        ? { object: 'list', data: [{ id: 'gpt-4o-mini', object: 'model', created: 0, owned_by: 'stand-in' }] }
        : {
            id: 'stand-in',
            object: 'chat.completion',
            created: 0,
            model: 'gpt-4o-mini',
            choices: [{ index: 0, message: { role: 'assistant', content: 'Hello.' }, finish_reason: 'stop' }],
          };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function freePort() {
  const server = createServer();
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    }),
  );
}

async function waitForReady(address, child) {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`hub serve exited with ${child.exitCode}`);
    const body = await fetch(`${address}/api/is_initialized`)
      .then((response) => response.json())
      .catch(() => undefined);
    if (body?.is_initialized) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${address} did not become ready`);
}

/** `hub serve` on a free port, from the default mood (a new emotions file). */
async function serve(providerURL, dir) {
  const file = join(dir, 'emotions.json');
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'run.js'), 'serve'], {
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      LLM_API_KEY: 'stand-in',
      LLM_BASE_URL: providerURL,
      EMOTIONS_FILE: file,
      DRIFT_INTERVAL_MS: '86400000',
      DEBUG: '0',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const address = `http://127.0.0.1:${port}`;
  await waitForReady(address, child);
  const stop = () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    return exited;
  };
  return { address, stop };
}

/** All the pictures on one sheet, each under its accessible name: docs/images/avatar-moods.png. */
async function sheet(shots) {
  const page = await context.newPage();
  const cells = shots.map(({ name, label }) => {
    const data = readFileSync(join(output, `avatar-${name}.png`)).toString('base64');
    return `<figure><img src="data:image/png;base64,${data}" alt=""><figcaption>${label}</figcaption></figure>`;
  });
  await page.setContent(`<!doctype html><style>
    body { margin: 0; padding: 12px; font: 14px system-ui, sans-serif; background: #f5f6fa; width: fit-content; }
    main { display: grid; grid-template-columns: repeat(3, 240px); gap: 12px; }
    figure { margin: 0; background: #fff; border: 1px solid #d9dce6; border-radius: 10px; padding: 8px; text-align: center; }
    img { width: 200px; } figcaption { color: #1d2230; }
  </style><main>${cells.join('')}</main>`);
  await page.locator('main').screenshot({ path: join(output, 'avatar-moods.png') });
  await page.close();
}

const provider = await startProvider();
const providerURL = `http://127.0.0.1:${provider.address().port}/v1`;
// Reduced motion: the picture shows the mood at rest, not a blink or half a breath.
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const context = await browser.newContext({ reducedMotion: 'reduce', viewport: { width: 1000, height: 700 }, deviceScaleFactor: 1 });
mkdirSync(output, { recursive: true });
const shots = [];
try {
  for (const [name, messages] of Object.entries(CONVERSATIONS)) {
    const dir = mkdtempSync(join(tmpdir(), 'avatar-shot-'));
    const service = await serve(providerURL, dir);
    try {
      for (const message of messages) {
        const response = await fetch(`${service.address}/api/chat`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ message }),
        });
        if (!response.ok) throw new Error(`chat "${message}": ${response.status} ${await response.text()}`);
      }
      const page = await context.newPage();
      await page.goto(`${service.address}/`);
      await page.locator('#state', { hasText: 'Ready' }).waitFor();
      await page.locator(`#avatar[aria-label*="mostly"], #avatar[aria-label*="calm"]`).waitFor();
      const label = await page.locator('#avatar').getAttribute('aria-label');
      await page.locator('#avatar-figure').screenshot({ path: join(output, `avatar-${name}.png`) });
      shots.push({ name, label });
      const { emotions } = await (await fetch(`${service.address}/api/avatar`)).json();
      console.log(`avatar-${name}.png: ${label} ${JSON.stringify(emotions)}`);
      await page.close();
    } finally {
      await service.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  await sheet(shots);
} finally {
  await browser.close();
  provider.close();
}
