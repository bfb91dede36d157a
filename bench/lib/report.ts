import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';

/** One line of the benchmark table: a figure for the product, the same for its baseline, and how they compare. */
export interface BenchRow {
  readonly scenario: string;
  readonly product: string;
  readonly baseline: string;
  /** product / baseline, in the sense the target states. */
  readonly ratio: number;
  readonly target: string;
  readonly met: boolean;
}

export function machineLine(): string {
  const cores = cpus();
  return `${cores.length} × ${cores[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

export function markdownTable(rows: readonly BenchRow[]): string {
  const header = '| scenario | product | baseline | ratio | target | met |\n|---|---|---|---|---|---|';
  const lines = rows.map(
    (row) => `| ${row.scenario} | ${row.product} | ${row.baseline} | ${row.ratio.toFixed(2)} | ${row.target} | ${row.met ? 'yes' : 'no'} |`,
  );
  return [header, ...lines].join('\n');
}

const BEGIN = '<!-- bench:begin -->';
const END = '<!-- bench:end -->';

/** Replaces the figures between the bench markers of a document (docs/performance.md), leaving the rest untouched. */
export function writeFigures(docPath: string, rows: readonly BenchRow[], takenAt: Date): void {
  const doc = readFileSync(docPath, 'utf8');
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${docPath} has no ${BEGIN} … ${END} section`);
  const figures = `${BEGIN}\nTaken ${takenAt.toISOString().slice(0, 10)} on ${machineLine()}.\n\n${markdownTable(rows)}\n`;
  writeFileSync(docPath, doc.slice(0, start) + figures + doc.slice(end));
}
