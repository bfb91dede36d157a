import { EMOTION_NAMES } from '../../emotions/emotions.js';
import { APPRAISAL_LABELS, appraise, topLabel, type AppraisalModel } from '../appraisal.js';
import type { Scores } from '../model-file.js';
import type { Example } from './goemotions.js';

/** Rows: the raters' label; columns: the reading. */
export interface Confusion {
  readonly names: readonly string[];
  readonly counts: readonly (readonly number[])[];
}

export interface Evaluation {
  /** The six labels, on the comments with exactly one label. */
  readonly labels: Scores & { readonly confusion: Confusion };
  /** The five emotions, on the comments with exactly one label that is not neutral: the strongest emotion is the reading. */
  readonly emotions: Scores & { readonly confusion: Confusion };
}

function scoresOf(confusion: Confusion): Scores {
  const { names, counts } = confusion;
  const f1: Record<string, number> = {};
  names.forEach((name, k) => {
    const truePositives = counts[k]![k]!;
    const predicted = counts.reduce((sum, row) => sum + row[k]!, 0);
    const actual = counts[k]!.reduce((sum, count) => sum + count, 0);
    f1[name] = predicted + actual === 0 ? 0 : round4((2 * truePositives) / (predicted + actual));
  });
  const values = Object.values(f1);
  return { f1, macroF1: round4(values.reduce((sum, value) => sum + value, 0) / values.length) };
}

function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

function emptyConfusion(names: readonly string[]): { names: readonly string[]; counts: number[][] } {
  return { names, counts: names.map(() => new Array<number>(names.length).fill(0)) };
}

/** Scores a model on labelled comments, the way docs/appraisal.md reports it. */
export function evaluate(model: AppraisalModel, examples: readonly Example[]): Evaluation {
  const labels = emptyConfusion(APPRAISAL_LABELS);
  const emotions = emptyConfusion(EMOTION_NAMES);
  const neutral = APPRAISAL_LABELS.indexOf('neutral');
  for (const example of examples) {
    if (example.labels.length !== 1) continue;
    const truth = example.labels[0]!;
    const appraisal = appraise(model, example.text);
    labels.counts[truth]![APPRAISAL_LABELS.indexOf(topLabel(appraisal))]!++;
    if (truth !== neutral) emotions.counts[truth]![EMOTION_NAMES.indexOf(appraisal.strongest)]!++;
  }
  return { labels: { ...scoresOf(labels), confusion: labels }, emotions: { ...scoresOf(emotions), confusion: emotions } };
}

/** A confusion table as text: one row per true label, counts right-aligned. */
export function formatConfusion({ names, counts }: Confusion): string {
  const width = Math.max(...names.map((name) => name.length), ...counts.flat().map((count) => String(count).length)) + 1;
  const cell = (text: string) => text.padStart(width);
  const header = `${'true \\ read'.padEnd(width + 2)}${names.map(cell).join('')}`;
  return [header, ...counts.map((row, k) => `${names[k]!.padEnd(width + 2)}${row.map((count) => cell(String(count))).join('')}`)].join(
    '\n',
  );
}
