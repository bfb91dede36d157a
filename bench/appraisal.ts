// What reading a message costs: the appraisal (words, pairs and lexicon weights scored by the shipped
// linear model) against the sentiment package alone (what the one-axis rule ran), per message, over
// real comments (the GoEmotions dev split), in one process; and the heap the loaded weights take.
// Runs inside `npm run bench`, or alone: `npm run build && tsc -p tsconfig.bench.json && node dist-bench/bench/appraisal.js`.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { analyzeSentiment, appraise, loadShippedModel } from 'emotion-hub';
import { collect } from './session-memory.js';
import { worstCaseMessages } from '../testkit/worst-messages.js';

export interface AppraisalFigures {
  readonly messages: number;
  /** Per message, in µs: the appraisal's p50 and p99, the sentiment's p50 and p99. */
  readonly appraisal: Quantiles;
  readonly sentiment: Quantiles;
  /** Per 4,000-character worst case (one word, `!` runs, emoji flood, zalgo), in µs: the appraisal's and the sentiment's p50 and p99 over 200 readings of each. */
  readonly worst: Record<string, { readonly appraisal: Quantiles; readonly sentiment: Quantiles }>;
  /** Heap the loaded weights take, after a full collection. */
  readonly modelBytes: number;
}

interface Quantiles {
  readonly p50: number;
  readonly p99: number;
}

/** p50 and p99 of the time `read` takes per text, in µs, after a warm-up pass. */
function timePerText(texts: readonly string[], read: (text: string) => unknown): Quantiles {
  for (const text of texts) read(text);
  const times = texts.map((text) => {
    const start = process.hrtime.bigint();
    read(text);
    return Number(process.hrtime.bigint() - start) / 1000;
  });
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length * 0.5)]!, p99: times[Math.floor(times.length * 0.99)]! };
}

export async function measureAppraisal(): Promise<AppraisalFigures> {
  const dev = fileURLToPath(new URL('../../data/goemotions/dev.tsv', import.meta.url));
  const texts = readFileSync(dev, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split('\t')[0]!);
  collect();
  const before = process.memoryUsage().heapUsed;
  const model = await loadShippedModel();
  collect();
  const modelBytes = process.memoryUsage().heapUsed - before;
  const sentiment = timePerText(texts, analyzeSentiment);
  const appraisal = timePerText(texts, (text) => appraise(model, text));
  const worst = Object.fromEntries(
    Object.entries(worstCaseMessages(4000)).map(([name, text]) => {
      const texts = Array.from({ length: 200 }, () => text);
      return [name, { appraisal: timePerText(texts, (text) => appraise(model, text)), sentiment: timePerText(texts, analyzeSentiment) }];
    }),
  );
  return { messages: texts.length, appraisal, sentiment, worst, modelBytes };
}

/** Loading the weights in a fresh process, in ms (the median of `runs`, product and baseline alternating): the product as the service loads them, the baseline a plain `JSON.parse` of the same file. */
export function measureModelLoad(runs = 9): { readonly product: number; readonly baseline: number } {
  const child = fileURLToPath(new URL('./lib/model-load-child.js', import.meta.url));
  const load = (kind: string) => Number(execFileSync(process.execPath, [child, kind], { encoding: 'utf8' }));
  const times = { product: [] as number[], baseline: [] as number[] };
  for (let run = 0; run < runs; run++) {
    times.product.push(load('product'));
    times.baseline.push(load('baseline'));
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return { product: median(times.product), baseline: median(times.baseline) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(await measureAppraisal(), measureModelLoad());
