// `hub webhooks listen` measured against the Hub stand-in (docs/webhook-tools.md#measured):
//   node dist-bench/bench/webhook-listen.js   (after `npm run build && tsc -p tsconfig.bench.json`)
// 1. from starting `listen` to its first forwarded delivery; 2. the forwarding overhead, p50 and p95,
// against posting straight to the target; 3. webhooks left behind after SIGINT, SIGTERM, and a SIGKILL
// followed by the next `listen`.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeHub, type FakeHub } from '../testkit/fake-hub.js';
import { eventually } from '../testkit/eventually.js';
import { createInterface } from 'node:readline';
import { freePort } from '../testkit/free-port.js';
import { startListen } from '../testkit/listen-process.js';
import { hubPayloadOfSize } from './lib/payload.js';
import { machineLine } from './lib/report.js';

const TOKEN = 'hf_bench_token';
const RUNS = 5;
const DELIVERIES = 400;

// The forward target runs in a process of its own, as a user's receiver does: in the bench's own
// process, posting straight to it would skip the hop between processes that forwarding pays.
const TARGET = `
const server = require('node:http').createServer((request, response) => {
  request.resume();
  request.on('end', () => { console.log('received'); response.writeHead(200, { 'content-type': 'application/json' }).end('{}'); });
});
server.listen(0, '127.0.0.1', () => console.log('port ' + server.address().port));`;

async function startTargetProcess(): Promise<{ url: string; received: () => number; close: () => void }> {
  const child = spawn(process.execPath, ['-e', TARGET], { stdio: ['ignore', 'pipe', 'inherit'] });
  let received = 0;
  const url = await new Promise<string>((resolve) =>
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line === 'received') received += 1;
      else resolve(`http://127.0.0.1:${line.slice(5)}/hook`);
    }),
  );
  return { url, received: () => received, close: () => void child.kill() };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function listenOn(hub: FakeHub, env: NodeJS.ProcessEnv, target: string) {
  const port = await freePort();
  const started = performance.now();
  const listen = startListen(
    [
      '--watch',
      'model:gpt2',
      '--forward-to',
      target,
      '--tunnel',
      'none',
      '--port',
      String(port),
      '--public-url',
      `http://127.0.0.1:${port}`,
    ],
    env,
  );
  const id = await listen.created();
  const webhook = hub.webhooks.get(id)!;
  return { listen, id, started, url: webhook.url!, secret: webhook.secret! };
}

async function post(url: string, body: string, secret: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-webhook-secret': secret }, body });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
  return performance.now() - started;
}

async function main(): Promise<void> {
  const hub = await startFakeHub({ token: TOKEN });
  const target = await startTargetProcess();
  const dir = mkdtempSync(join(tmpdir(), 'listen-bench-'));
  const env = { HF_ENDPOINT: hub.url, HF_TOKEN: TOKEN, HOME: dir, XDG_CACHE_HOME: join(dir, 'cache') };
  const body = hubPayloadOfSize(2048);
  console.log(machineLine());

  const firsts: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const received = target.received();
    const { listen, started, url, secret } = await listenOn(hub, env, target.url);
    await post(url, body, secret);
    await eventually('the forwarded delivery', () => target.received() > received);
    firsts.push(performance.now() - started);
    listen.child.kill('SIGINT');
    await listen.exited();
  }
  firsts.sort((a, b) => a - b);
  console.log(
    `listen → first forwarded delivery: median ${firsts[RUNS >> 1]!.toFixed(0)} ms (${firsts.map((ms) => ms.toFixed(0)).join(', ')})`,
  );

  const { listen, url, secret } = await listenOn(hub, env, target.url);
  const direct: number[] = [];
  const forwarded: number[] = [];
  for (let i = 0; i < 50; i += 1) await post(url, body, secret); // warm-up of both paths
  for (let i = 0; i < 50; i += 1) await post(target.url, body, secret);
  // Interleaved, so that the machine's load swings touch both series alike.
  for (let i = 0; i < DELIVERIES; i += 1) {
    direct.push(await post(target.url, body, secret));
    forwarded.push(await post(url, body, secret));
  }
  listen.child.kill('SIGINT');
  await listen.exited();
  direct.sort((a, b) => a - b);
  forwarded.sort((a, b) => a - b);
  for (const p of [50, 95]) {
    const d = percentile(direct, p);
    const f = percentile(forwarded, p);
    console.log(`p${p}: straight to the target ${d.toFixed(2)} ms, through listen ${f.toFixed(2)} ms, overhead ${(f - d).toFixed(2)} ms`);
  }

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    const run = await listenOn(hub, env, target.url);
    run.listen.child.kill(signal);
    const code = await run.listen.exited();
    console.log(`${signal}: exit ${code}, webhooks left on the hub: ${hub.webhooks.size}`);
  }
  const killed = await listenOn(hub, env, target.url);
  killed.listen.child.kill('SIGKILL');
  await killed.listen.exited();
  const leftAfterKill = hub.webhooks.size;
  const next = await listenOn(hub, env, target.url);
  const leftWhileNextRuns = [...hub.webhooks.keys()].filter((id) => id !== next.id).length;
  next.listen.child.kill('SIGINT');
  await next.listen.exited();
  console.log(
    `SIGKILL: ${leftAfterKill} webhook left; after the next listen started: ${leftWhileNextRuns}; after it stopped: ${hub.webhooks.size}`,
  );
  target.close();
  await hub.close();
}

await main();
