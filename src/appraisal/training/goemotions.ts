import { readFile } from 'node:fs/promises';
import { APPRAISAL_LABELS, type AppraisalLabel } from '../appraisal.js';

/** One labelled comment: its text and the labels its raters gave (one or more, as indices of APPRAISAL_LABELS). */
export interface Example {
  readonly text: string;
  readonly labels: readonly number[];
}

/**
 * Ekman's groups as the product names them: disgust is read as anger (both push away), and the
 * surprise group (surprise, realization, confusion, curiosity) is the avatar's curiosity.
 */
const EKMAN_TO_LABEL: Readonly<Record<string, AppraisalLabel>> = {
  anger: 'anger',
  disgust: 'anger',
  fear: 'fear',
  joy: 'joy',
  neutral: 'neutral',
  sadness: 'sadness',
  surprise: 'curiosity',
};

/** The data's own label names: the lines of labels.txt, whose order gives the ids the TSV files use. */
export function labelNames(labelsText: string): string[] {
  return labelsText
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** The label of each line of labels.txt (the ids the TSV files use). */
export function labelIds(labelsText: string): number[] {
  return labelNames(labelsText).map((name) => {
    const label = EKMAN_TO_LABEL[name];
    if (label === undefined) throw new Error(`labels.txt: unknown label ${JSON.stringify(name)}`);
    return APPRAISAL_LABELS.indexOf(label);
  });
}

/** Parses a split: `text<TAB>ids<TAB>comment id` a line; the ids become distinct labels. */
export function parseSplit(tsv: string, ids: readonly number[], name = 'split'): Example[] {
  return tsv
    .split('\n')
    .filter((line) => line !== '')
    .map((line, index) => {
      const [text, labelList] = line.split('\t');
      const labels = [...new Set((labelList ?? '').split(',').map((id) => ids[Number(id)]))];
      if (text === undefined || labels.length === 0 || labels.some((label) => label === undefined))
        throw new Error(`${name}:${index + 1}: expected text, label ids and a comment id`);
      return { text, labels: labels as number[] };
    });
}

/** The train and dev splits of the folder (data/goemotions/ in the repository). */
export async function readGoEmotions(folder: URL): Promise<{ train: Example[]; dev: Example[] }> {
  const read = (name: string) => readFile(new URL(name, folder), 'utf8');
  const ids = labelIds(await read('labels.txt'));
  return { train: parseSplit(await read('train.tsv'), ids, 'train.tsv'), dev: parseSplit(await read('dev.tsv'), ids, 'dev.tsv') };
}

/**
 * The dev split read two ways: `examples` in the product's labels (as training reads it) and
 * `ekman` in the data's own (indices into `names`: disgust apart from anger, surprise as surprise).
 */
export async function readDevSplit(folder: URL): Promise<{ names: string[]; ekman: Example[]; examples: Example[] }> {
  const labelsText = await readFile(new URL('labels.txt', folder), 'utf8');
  const tsv = await readFile(new URL('dev.tsv', folder), 'utf8');
  const names = labelNames(labelsText);
  return {
    names,
    ekman: parseSplit(
      tsv,
      names.map((_, id) => id),
      'dev.tsv',
    ),
    examples: parseSplit(tsv, labelIds(labelsText), 'dev.tsv'),
  };
}
