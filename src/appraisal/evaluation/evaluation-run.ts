import { readFile, writeFile } from 'node:fs/promises';
import { EMOTION_NAMES } from '../../emotions/emotions.js';
import { APPRAISAL_LABELS, appraise, type AppraisalModel } from '../appraisal.js';
import { loadShippedModel } from '../shipped-model.js';
import { evaluate } from '../training/evaluate.js';
import { readDevSplit } from '../training/goemotions.js';
import { formatEvaluation, GOEMOTIONS_FOLDER } from '../training/training-run.js';
import { calibrationOf, type Calibration } from './calibration.js';
import { calibrationChart } from './calibration-chart.js';
import { bestThreshold, type DisgustRule, ekmanScores, type MultiLabelScore, multiLabelF1 } from './ekman.js';
import { emotionColours, PAGE_STYLE_URL } from './palette.js';

/** Where `npm run evaluate:appraisal` writes the chart docs/appraisal.md shows. */
export const CALIBRATION_CHART_URL = new URL('../../../docs/appraisal-calibration.svg', import.meta.url);

/** The GoEmotions paper's own threshold (on its sigmoid outputs), shown beside the one chosen on dev. */
const PAPER_THRESHOLD = 0.3;
/** A chart's bin with fewer comments than this is left out. */
const MIN_BIN_COUNT = 10;

export interface EkmanReport {
  readonly names: readonly string[];
  /** Disgust scored with anger's probability, at the threshold that maximises dev macro-F1. */
  readonly asAnger: MultiLabelScore;
  /** Disgust never predicted, at its own best threshold. */
  readonly never: MultiLabelScore;
  /** Disgust as anger at the paper's 0.3. */
  readonly paper: MultiLabelScore;
}

export interface AppraisalReport {
  readonly text: string;
  readonly svg: string;
  readonly ekman: EkmanReport;
  readonly calibration: Readonly<Record<string, Calibration>>;
}

const f3 = (value: number): string => value.toFixed(3);

function formatEkman({ names, asAnger, never, paper }: EkmanReport, comments: number): string {
  const width = Math.max(...names.map((name) => name.length)) + 2;
  const without = (score: MultiLabelScore) => {
    const kept = score.f1.filter((_, k) => names[k] !== 'disgust');
    return kept.reduce((sum, value) => sum + value, 0) / kept.length;
  };
  return [
    `GoEmotions' Ekman score on the dev split (${comments.toLocaleString('en')} comments, multi-label: every label whose probability reaches the threshold is predicted):`,
    `  threshold ${asAnger.threshold.toFixed(2)}, the one global threshold of 0.01, 0.02, …, 0.99 that maximises dev macro-F1`,
    '  disgust is scored with anger’s probability (the model reads disgust as anger), surprise with curiosity’s',
    ...names.map((name, k) => `  ${name.padEnd(width)} F1 ${f3(asAnger.f1[k]!)}`),
    `  macro-F1 (seven labels)   ${f3(asAnger.macroF1)}`,
    `  without disgust (six)     ${f3(without(asAnger))}`,
    `  disgust never predicted   ${f3(never.macroF1)} (threshold ${never.threshold.toFixed(2)}, disgust F1 0)`,
    `  at the paper's threshold ${PAPER_THRESHOLD}: ${f3(paper.macroF1)}`,
  ].join('\n');
}

function formatCalibration(calibration: AppraisalReport['calibration']): string {
  return [
    'Calibration (all dev comments): per tenth of predicted probability (0–0.1, …, 0.9–1), the share whose raters gave the emotion:',
    ...Object.entries(calibration).map(
      ([name, { ece, bins }]) => `  ${name.padEnd(10)} ECE ${f3(ece)}   ${bins.map((bin) => bin.observed.toFixed(2)).join(' ')}`,
    ),
  ].join('\n');
}

/** Scores a model on the dev split: the five emotions, the six labels, GoEmotions' Ekman score and the calibration chart. */
export async function evaluateAppraisal(model: AppraisalModel, folder: URL = GOEMOTIONS_FOLDER, css?: string): Promise<AppraisalReport> {
  const { names, ekman, examples } = await readDevSplit(folder);
  const appraisals = examples.map(({ text }) => appraise(model, text));
  const scored = (disgust: DisgustRule) => ekman.map(({ labels }, n) => ({ scores: ekmanScores(appraisals[n]!, names, disgust), labels }));
  const asAnger = scored('as-anger');
  const report: EkmanReport = {
    names,
    asAnger: bestThreshold(asAnger, names.length),
    never: bestThreshold(scored('never'), names.length),
    paper: multiLabelF1(asAnger, names.length, PAPER_THRESHOLD),
  };
  const calibration = Object.fromEntries(
    EMOTION_NAMES.map((name) => {
      const label = APPRAISAL_LABELS.indexOf(name);
      return [
        name,
        calibrationOf(examples.map(({ labels }, n) => ({ p: appraisals[n]!.emotions[name], happened: labels.includes(label) }))),
      ];
    }),
  );
  const colours = emotionColours(css ?? (await readFile(PAGE_STYLE_URL, 'utf8')));
  const svg = calibrationChart(
    EMOTION_NAMES.map((name) => ({ name, colour: colours[name], calibration: calibration[name]! })),
    {
      title: `Calibration of the appraisal on the GoEmotions dev split (${examples.length.toLocaleString('en')} comments)`,
      minCount: MIN_BIN_COUNT,
    },
  );
  const text = [
    formatEvaluation(evaluate(model, examples), model.rows.size),
    formatEkman(report, examples.length),
    formatCalibration(calibration),
  ].join('\n\n');
  return { text, svg, ekman: report, calibration };
}

/** `npm run evaluate:appraisal`: prints the shipped model's dev scores and writes docs/appraisal-calibration.svg. */
export async function main(): Promise<void> {
  const { text, svg } = await evaluateAppraisal(await loadShippedModel());
  await writeFile(CALIBRATION_CHART_URL, svg);
  process.stdout.write(`${text}\n\nwrote ${CALIBRATION_CHART_URL.pathname}\n`);
}
