import { APPRAISAL_LABELS, type AppraisalModel } from './appraisal.js';

/** The identifier of the weights file's layout; a file of another layout is refused, not misread. */
export const MODEL_FORMAT = 'emotion-hub/appraisal@1';

/** Weights are stored as integers of this many thousandths: compact, and identical wherever the file is written. */
export const WEIGHT_SCALE = 1000;

/** Per-label F1 and their mean, as the training script prints them. */
export interface Scores {
  readonly f1: Readonly<Record<string, number>>;
  readonly macroF1: number;
}

/** What training records beside the weights: how the file was made and how it scored on the dev split. */
export interface ModelProvenance {
  readonly data: string;
  readonly settings: Readonly<Record<string, number>>;
  /** Dev split: the six labels on single-label comments, and the five emotions on single-emotion comments. */
  readonly dev: { readonly labels: Scores; readonly emotions: Scores };
}

/** The weights file (`models/appraisal.json`) as JSON. */
export interface ModelFile extends ModelProvenance {
  readonly format: typeof MODEL_FORMAT;
  readonly labels: readonly string[];
  readonly scale: number;
  readonly bias: readonly number[];
  /** Feature key → one integer weight per label. */
  readonly features: Readonly<Record<string, readonly number[]>>;
}

export class ModelFileError extends Error {
  override readonly name = 'ModelFileError';
}

/** The model a parsed weights file holds; throws `ModelFileError` naming what is wrong. */
export function modelFromFile(file: ModelFile): AppraisalModel {
  if (file.format !== MODEL_FORMAT) throw new ModelFileError(`format is ${JSON.stringify(file.format)}, expected ${MODEL_FORMAT}`);
  if (JSON.stringify(file.labels) !== JSON.stringify(APPRAISAL_LABELS))
    throw new ModelFileError(`labels are ${JSON.stringify(file.labels)}, expected ${JSON.stringify(APPRAISAL_LABELS)}`);
  const width = APPRAISAL_LABELS.length;
  const valid = (row: unknown): row is number[] => Array.isArray(row) && row.length === width && row.every(Number.isFinite);
  if (!valid(file.bias)) throw new ModelFileError(`bias must hold ${width} numbers`);
  const keys = Object.keys(file.features);
  const rows = new Map<string, number>();
  const weights = new Float64Array(keys.length * width);
  keys.forEach((key, row) => {
    const stored = file.features[key];
    if (!valid(stored)) throw new ModelFileError(`feature ${JSON.stringify(key)} must hold ${width} numbers`);
    rows.set(key, row);
    for (let k = 0; k < width; k++) weights[row * width + k] = stored[k]! / file.scale;
  });
  return { rows, weights, bias: file.bias.map((value) => value / file.scale) };
}

/** Parses the weights file's text. */
export function parseModelFile(text: string): ModelFile {
  let file: unknown;
  try {
    file = JSON.parse(text);
  } catch (error) {
    throw new ModelFileError(`not JSON (${(error as Error).message})`);
  }
  if (
    typeof file !== 'object' ||
    file === null ||
    typeof (file as ModelFile).features !== 'object' ||
    (file as ModelFile).features === null
  )
    throw new ModelFileError('not a weights file: no features');
  return file as ModelFile;
}
