// The inspector's filter over 10,000 journal entries: the server-side time `hub webhooks inspect`
// reports per query (its answer's `tookMs`), against what a user would write instead in its own
// process: read the journal's lines and parse and test each one for every query.
// Runs inside `npm run bench` (BENCH_ONLY=inspector), or alone after `npm run build && tsc -p tsconfig.bench.json`.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ROOT } from '../testkit/package-root.js';

export interface FilterFigures {
  readonly entries: number;
  readonly queries: number;
  /** Median over every query and round of the inspector's own measure, in ms. */
  readonly inspectorMs: number;
  /** The 95th percentile: a query now and then meets a garbage collection. */
  readonly inspectorP95Ms: number;
  /** Median of the parse-and-scan baseline, in ms. */
  readonly baselineMs: number;
}

const ENTRIES = 10_000;
const ROUNDS = 15;
const SCOPES = ['repo', 'repo.content', 'repo.config', 'discussion', 'discussion.comment'];
/** The filters a developer types: a status, a repository, words, an event, a window, all at once. */
const QUERIES = [
  'status=failed',
  'repo=model-42',
  'q=refs%2Fpr%2F5',
  'event=discussion.comment',
  'q=traceback+keyerror',
  `from=${encodeURIComponent(new Date(Date.UTC(2026, 10, 27, 12)).toISOString())}&status=delivered&event=repo.content`,
];

function journalLines(): string {
  const lines: string[] = [];
  for (let i = 0; i < ENTRIES; i += 1) {
    const scope = SCOPES[i % SCOPES.length]!;
    const body = {
      event: { action: 'update', scope },
      repo: {
        type: 'model',
        name: `user-${i % 97}/model-${i % 500}`,
        id: `${i}`.padStart(24, '0'),
        private: false,
        headSha: 'f'.repeat(40),
      },
      webhook: { id: '65a14fd933eca76f4639fc84', version: 3 },
      updatedRefs: [{ ref: i % 7 === 0 ? 'refs/pr/5' : 'refs/heads/main', oldSha: 'a'.repeat(40), newSha: 'b'.repeat(40) }],
      discussion: scope.startsWith('discussion')
        ? { id: `${i}`, title: `Question ${i} about the tokenizer`, num: i % 40, status: 'open' }
        : null,
    };
    const status = i % 11 === 0 ? 500 : i % 13 === 0 ? 422 : 200;
    lines.push(
      JSON.stringify({
        webhookId: i.toString(16).padStart(24, '0'),
        route: 'listen',
        receivedAt: new Date(Date.UTC(2026, 10, 27, 10) + i * 1000).toISOString(),
        headers: { 'content-type': 'application/json', 'user-agent': 'huggingface-hub-webhooks', 'webhook-id': i.toString(16) },
        body,
        status,
        ms: 3.4,
        ...(status === 500 ? { answer: '{"error":"Traceback (most recent call last): KeyError: headSha"}' } : {}),
      }),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** The baseline, in a process of its own: every query parses and tests each line again. */
const BASELINE = `
const { readFileSync } = require('node:fs');
const [file, rounds, ...queries] = process.argv.slice(1);
const lines = readFileSync(file, 'utf8').split('\\n').filter(Boolean);
const times = [];
for (let round = 0; round < Number(rounds); round++) for (const query of queries) {
  const p = new URLSearchParams(query);
  const started = performance.now();
  const found = lines.map((line) => JSON.parse(line)).filter((e) => {
    const ok = e.status >= 200 && e.status < 300 ? 'delivered' : e.status >= 400 && e.status < 500 ? 'refused' : 'failed';
    if (p.get('status') && ok !== p.get('status')) return false;
    if (p.get('event') && !(e.body.event.scope + ':' + e.body.event.action).startsWith(p.get('event'))) return false;
    if (p.get('repo') && !e.body.repo.name.toLowerCase().includes(p.get('repo'))) return false;
    if (p.get('from') && e.receivedAt < p.get('from')) return false;
    return (p.get('q') ?? '').toLowerCase().split(/\\s+/).filter(Boolean).every((w) => JSON.stringify(e).toLowerCase().includes(w));
  });
  if (found.length < 0) throw new Error();
  times.push(performance.now() - started);
}
times.sort((a, b) => a - b);
console.log(times[Math.floor(times.length / 2)]);
`;

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function measureInspectorFilter(): Promise<FilterFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'inspector-bench-'));
  const journal = join(dir, 'deliveries.jsonl');
  writeFileSync(journal, journalLines());
  const child = spawn(process.execPath, ['bin/run.js', 'webhooks', 'inspect', '--journal', journal], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const url = await new Promise<URL>((resolve, reject) => {
      createInterface({ input: child.stdout! }).on('line', (line) => {
        const found = /^Open (\S+)$/.exec(line)?.[1];
        if (found) resolve(new URL(found));
      });
      child.on('exit', () => reject(new Error('hub webhooks inspect exited')));
    });
    const headers = { authorization: `Bearer ${url.searchParams.get('token')}` };
    const times: number[] = [];
    for (let round = 0; round < ROUNDS + 2; round += 1)
      for (const query of QUERIES) {
        const answer = (await (await fetch(`${url.origin}/api/deliveries?${query}`, { headers })).json()) as { tookMs: number };
        // The first two rounds warm the code up, untimed.
        if (round >= 2) times.push(answer.tookMs);
      }
    const baselineMs = Number(
      execFileSync(process.execPath, ['-e', BASELINE, journal, String(Math.max(3, Math.floor(ROUNDS / 3))), ...QUERIES], {
        encoding: 'utf8',
      }),
    );
    return {
      entries: ENTRIES,
      queries: QUERIES.length,
      inspectorMs: median(times),
      inspectorP95Ms: [...times].sort((a, b) => a - b)[Math.floor(times.length * 0.95)]!,
      baselineMs,
    };
  } finally {
    child.kill('SIGINT');
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === import.meta.filename) console.log(await measureInspectorFilter());
