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

/** The label of each line of labels.txt (the ids the TSV files use). */
export function labelIds(labelsText: string): number[] {
  return labelsText
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((name) => {
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
