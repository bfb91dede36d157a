import { writeFile } from 'node:fs/promises';
import { modelFromFile, type ModelFile } from '../model-file.js';
import { SHIPPED_MODEL_URL } from '../shipped-model.js';
import { evaluate, formatConfusion, type Evaluation } from './evaluate.js';
import { readGoEmotions } from './goemotions.js';
import { packModel, serializeModelFile } from './pack.js';
import { DEFAULT_SETTINGS, train, type TrainingSettings } from './train.js';

/** The repository's copy of the GoEmotions train and dev splits (the test split is held out). */
export const GOEMOTIONS_FOLDER = new URL('../../../data/goemotions/', import.meta.url);

const DATA = 'GoEmotions (Demszky et al., ACL 2020), train split, Ekman grouping: disgust read as anger, surprise as curiosity';

export interface TrainingResult {
  readonly file: ModelFile;
  readonly text: string;
  readonly dev: Evaluation;
}

/** Trains on the train split, packs the weights and scores what would ship on the dev split. */
export async function trainAppraisal(
  folder: URL = GOEMOTIONS_FOLDER,
  settings: TrainingSettings = DEFAULT_SETTINGS,
): Promise<TrainingResult> {
  const { train: examples, dev } = await readGoEmotions(folder);
  const trained = train(examples, settings);
  const draft = packModel(trained, {
    data: DATA,
    settings: { ...settings },
    dev: { labels: { f1: {}, macroF1: 0 }, emotions: { f1: {}, macroF1: 0 } },
  });
  const scores = evaluate(modelFromFile(draft), dev);
  const strip = ({ f1, macroF1 }: Evaluation['labels']) => ({ f1, macroF1 });
  const file: ModelFile = { ...draft, dev: { labels: strip(scores.labels), emotions: strip(scores.emotions) } };
  return { file, text: serializeModelFile(file), dev: scores };
}

/** What the script prints: per-label F1, macro-F1 and the confusion table, for both readings. */
export function formatEvaluation(dev: Evaluation, features: number): string {
  const part = (title: string, scores: Evaluation['labels']) =>
    [
      title,
      ...Object.entries(scores.f1).map(([name, f1]) => `  ${name.padEnd(10)} F1 ${f1.toFixed(3)}`),
      `  macro-F1     ${scores.macroF1.toFixed(3)}`,
      formatConfusion(scores.confusion),
    ].join('\n');
  return [
    `${features} features`,
    part('dev split, the five emotions (comments with one label, not neutral; the strongest emotion is the reading):', dev.emotions),
    part('dev split, six labels (comments with one label; neutral when it is the most probable):', dev.labels),
  ].join('\n\n');
}

/** `npm run train:appraisal`: writes models/appraisal.json and prints the dev split's scores. */
export async function main(): Promise<void> {
  const { file, text, dev } = await trainAppraisal();
  await writeFile(SHIPPED_MODEL_URL, text);
  process.stdout.write(`${formatEvaluation(dev, Object.keys(file.features).length)}\n\nwrote ${SHIPPED_MODEL_URL.pathname}\n`);
}
