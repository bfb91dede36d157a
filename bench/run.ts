// `npm run bench`: the product against a bare baseline, side by side in one run, on 127.0.0.1 only.
// Figures, not pass/fail: the table says which targets are met. `--write-readme` records them.
import { fileURLToPath } from 'node:url';
import { startFakeHub } from '../test/support/fake-hub.js';
import { startServerProcess, type ServerProcess } from './lib/child.js';
import { medianRunMs } from './lib/cold-start.js';
import { medianFirstAnswerMs } from './lib/first-answer.js';
import { measureLoad, type LoadFigures, type LoadOptions } from './lib/load.js';
import { hubPayloadOfSize } from './lib/payload.js';
import { machineLine, markdownTable, writeReadmeFigures, type BenchRow } from './lib/report.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const chats = Number(process.env.BENCH_CHATS ?? 100_000);
const root = fileURLToPath(new URL('../../', import.meta.url));
const rows: BenchRow[] = [];

const figures = (f: LoadFigures): string =>
  `${Math.round(f.requestsPerSecond).toLocaleString('en')} req/s, p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms${f.errors + f.non2xx ? `, ${f.errors} errors, ${f.non2xx} non-2xx` : ''}`;

/** Warms both up, then measures the baseline and the product one after the other, alike. */
async function compare(scenario: string, target: number, product: LoadOptions, baseline: LoadOptions): Promise<LoadFigures> {
  await measureLoad({ ...baseline, durationSeconds: 1 });
  const base = await measureLoad(baseline);
  await measureLoad({ ...product, durationSeconds: 1 });
  const measured = await measureLoad(product);
  const ratio = measured.requestsPerSecond / base.requestsPerSecond;
  rows.push({ scenario, product: figures(measured), baseline: figures(base), ratio, target: `≥ ${target}`, met: ratio >= target && measured.errors + measured.non2xx === 0 });
  console.error(`${scenario}: ratio ${ratio.toFixed(2)}`);
  return measured;
}

async function httpScenarios(baseline: ServerProcess): Promise<void> {
  const chat = await startServerProcess('chat');
  try {
    const get = (url: string): LoadOptions => ({ url, durationSeconds: seconds });
    await compare('GET /api/avatar vs bare GET', 0.85, get(`${chat.url}/api/avatar`), get(`${baseline.url}/avatar`));
    await compare('GET /health vs bare GET', 0.95, get(`${chat.url}/health`), get(`${baseline.url}/health`));

    const body = JSON.stringify({ message: 'What a wonderful, curious day it is!' });
    const post = { method: 'POST' as const, body, headers: { 'content-type': 'application/json' }, durationSeconds: seconds };
    const writesBefore = (await chat.stats()).writes ?? 0;
    await compare('POST /api/chat vs bare POST', 0.5, { ...post, url: `${chat.url}/api/chat` }, { ...post, url: `${baseline.url}/chat` });
    // Only the product wrote: its 1 s warm-up and its measured `seconds` of sustained chats.
    const perSecond = (((await chat.stats()).writes ?? 0) - writesBefore) / (seconds + 1);
    rows.push({ scenario: 'emotions file writes under chat load', product: `${perSecond.toFixed(1)} writes/s`, baseline: '-', ratio: perSecond / 10, target: '≤ 10 writes/s', met: perSecond <= 10 });

    const before = await chat.stats();
    const load = await measureLoad({ ...post, url: `${chat.url}/api/chat`, durationSeconds: 3600, amount: chats });
    const after = await chat.stats();
    const growthMb = ((after.rss ?? 0) - (before.rss ?? 0)) / 2 ** 20;
    rows.push({
      scenario: `RSS after ${load.requests.toLocaleString('en')} chats (after GC)`,
      product: `${((after.rss ?? 0) / 2 ** 20).toFixed(1)} MB (heap ${((after.heapUsed ?? 0) / 2 ** 20).toFixed(1)} MB)`,
      baseline: `${((before.rss ?? 0) / 2 ** 20).toFixed(1)} MB before`,
      ratio: (after.rss ?? 0) / (before.rss ?? 1),
      target: '≤ +30 MB',
      met: growthMb <= 30 && load.errors + load.non2xx === 0,
    });
  } finally {
    await chat.stop();
  }
}

async function webhookScenario(baseline: ServerProcess): Promise<void> {
  const webhooks = await startServerProcess('webhooks', { HF_HUB_DISABLE_EXPERIMENTAL_WARNING: '1' });
  try {
    const body = hubPayloadOfSize(2048);
    const headers = { 'content-type': 'application/json', 'x-webhook-secret': 'bench-secret', 'webhook-id': '65a14fd933eca76f4639fc84' };
    const options = { method: 'POST' as const, body, headers, durationSeconds: seconds };
    await compare('POST /webhooks/<name> (2 KB, secret) vs bare POST', 0.7, { ...options, url: `${webhooks.url}/webhooks/model_updated` }, { ...options, url: `${baseline.url}/echo` });
  } finally {
    await webhooks.stop();
  }
}

async function coldStartScenario(): Promise<void> {
  const hub = await startFakeHub();
  try {
    const env = { ...process.env, HF_ENDPOINT: hub.url, HF_TOKEN: 'hf_fake_token' };
    const node = await medianRunMs(process.execPath, ['-e', '0'], { env });
    const cli = await medianRunMs(process.execPath, ['bin/run.js', 'webhooks', 'ls'], { env, cwd: root });
    const ratio = cli / node;
    rows.push({ scenario: 'CLI cold start: hub webhooks ls vs node -e 0', product: `${cli.toFixed(0)} ms`, baseline: `${node.toFixed(0)} ms`, ratio, target: '≤ 3.5', met: ratio <= 3.5 });
  } finally {
    await hub.close();
  }
}

/** Importing each package entry, by its name as a user's code does, against a bare node. */
async function importScenario(): Promise<void> {
  const node = await medianRunMs(process.execPath, ['-e', '0'], { cwd: root });
  // The light entries have targets; the chat service and the whole package are measured only.
  const entries: [string, number | undefined][] = [
    ['emotion-hub/hub', 1.5],
    ['emotion-hub/webhooks', 4],
    ['emotion-hub/chat', undefined],
    ['emotion-hub', undefined],
  ];
  for (const [entry, target] of entries) {
    const ms = await medianRunMs(process.execPath, ['--input-type=module', '-e', `await import('${entry}')`], { cwd: root });
    const ratio = ms / node;
    rows.push({ scenario: `import '${entry}' vs node -e 0`, product: `${ms.toFixed(0)} ms`, baseline: `${node.toFixed(0)} ms`, ratio, target: target === undefined ? '-' : `≤ ${target}`, met: target === undefined || ratio <= target });
  }
}

/** Seed 000 ends the process on a model failure: the time to the first answer is a restart's downtime. */
async function firstAnswerScenario(): Promise<void> {
  const env = { ...process.env, DEBUG: '0', HOST: '127.0.0.1', EMOTIONS_FILE: `${root}dist-bench/first-answer-emotions.json`, LLM_API_KEY: '' };
  const bare = await medianFirstAnswerMs(process.execPath, [`${root}dist-bench/bench/servers/bare-health.js`], { env, cwd: root });
  const serve = await medianFirstAnswerMs(process.execPath, ['bin/run.js', 'serve'], { env, cwd: root });
  rows.push({ scenario: 'hub serve: start to first answer (GET /health) vs bare Fastify', product: `${serve.toFixed(0)} ms`, baseline: `${bare.toFixed(0)} ms`, ratio: serve / bare, target: '≤ 400 ms', met: serve <= 400 });
}

const baseline = await startServerProcess('baseline');
try {
  await httpScenarios(baseline);
  await webhookScenario(baseline);
} finally {
  await baseline.stop();
}
await coldStartScenario();
await importScenario();
await firstAnswerScenario();

console.log(`\nemotion-hub benchmark, ${seconds} s per load, ${machineLine()}\n`);
console.log(markdownTable(rows));
if (process.argv.includes('--write-readme')) writeReadmeFigures(`${root}README.md`, rows, new Date());
