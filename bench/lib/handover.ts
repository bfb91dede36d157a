// The hand-over under load (issue 38): `hub serve --supervise` with 20 clients looping chats (half
// JSON on keep-alive, half streamed) while a failing chat ends the serving process every 12 s for a
// minute; the same clients for a while without failures first, as the baseline rate.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { FAILING_MESSAGE, standInBaseUrl } from './openai-stand-in.js';

export interface HandOverFigures {
  /** Answers by status, and requests that got no answer (a refused or reset connection). */
  readonly statuses: Readonly<Record<string, number>>;
  readonly errors: number;
  readonly answersPerSecond: number;
  /** The longest time without a 200 to any client, in ms. */
  readonly longestGapMs: number;
  readonly failures: number;
}

export interface HandOverRun {
  readonly baseline: HandOverFigures;
  readonly withFailures: HandOverFigures;
}

const CLIENTS = 20;

/** Runs the clients for `ms`, and the failing chat every `failEveryMs` (never when 0). */
async function load(address: string, ms: number, failEveryMs: number): Promise<HandOverFigures> {
  const statuses: Record<string, number> = {};
  let errors = 0;
  let last200 = Date.now();
  let longestGapMs = 0;
  let failures = 0;
  const started = Date.now();
  const stopAt = started + ms;
  const chat = (message: string, streamed: boolean) =>
    fetch(`${address}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(streamed ? { accept: 'text/event-stream' } : {}) },
      body: JSON.stringify({ message }),
    });
  const client = async (i: number) => {
    const streamed = i % 2 === 1;
    while (Date.now() < stopAt) {
      try {
        const response = await chat(`hello from client ${i}`, streamed);
        const text = await response.text();
        const status =
          streamed && response.status === 200 && !text.includes('event: done') ? 'stream without done' : String(response.status);
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (status === '200') {
          const now = Date.now();
          longestGapMs = Math.max(longestGapMs, now - last200);
          last200 = now;
        }
      } catch {
        errors += 1;
      }
    }
  };
  const failer = async () => {
    if (failEveryMs === 0) return;
    for (let at = started + failEveryMs; at + 1000 < stopAt; at += failEveryMs) {
      await new Promise((resolve) => setTimeout(resolve, at - Date.now()));
      await chat(FAILING_MESSAGE, false).catch(() => undefined);
      failures += 1;
    }
  };
  await Promise.all([...Array.from({ length: CLIENTS }, (_, i) => client(i)), failer()]);
  const answers = Object.values(statuses).reduce((sum, count) => sum + count, 0);
  return { statuses, errors, answersPerSecond: answers / ((Date.now() - started) / 1000), longestGapMs, failures };
}

/** Starts the built CLI's supervised service, waits for it and its standby, and runs the two loads. */
export async function measureHandOver(root: string, seconds = 60, failEveryMs = 12_000): Promise<HandOverRun> {
  const dir = mkdtempSync(join(tmpdir(), 'emotion-hub-handover-'));
  const child = spawn(process.execPath, [join(root, 'bin/run.js'), 'serve', '--supervise'], {
    cwd: dir,
    env: {
      ...process.env,
      LLM_API_KEY: 'sk-bench-handover',
      LLM_BASE_URL: standInBaseUrl(),
      LLM_MODEL: 'bench-model',
      PORT: '0',
      HOST: '127.0.0.1',
      EMOTIONS_FILE: join(dir, 'emotions.json'),
      DRIFT_INTERVAL_MS: '86400000',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    let standbyLoaded = (): void => undefined;
    const standby = new Promise<void>((resolve) => (standbyLoaded = resolve));
    const address = await new Promise<string>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`hub serve --supervise exited with ${String(code)}`)));
      createInterface({ input: child.stdout! }).on('line', (line) => {
        const listening = /Server listening at (http:\/\/[\d.]+:\d+)/.exec(line);
        if (listening) resolve(listening[1]!);
        if (line.includes('a standby service has loaded')) standbyLoaded();
      });
    });
    await standby;
    const baseline = await load(address, (seconds * 1000) / 3, 0);
    const withFailures = await load(address, seconds * 1000 + 3000, failEveryMs);
    return { baseline, withFailures };
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  }
}
