import { isAscii } from 'node:buffer';
import { endianness } from 'node:os';
import { APPRAISAL_LABELS, type AppraisalModel } from './appraisal.js';

/** The identifier of the weights file's layout; a file of another layout is refused, not misread. */
export const MODEL_FORMAT = 'emotion-hub/appraisal@2';

/** Weights are stored as integers of this many thousandths: compact, and identical wherever the file is written. */
export const WEIGHT_SCALE = 1000;

/** What one stored weight holds: a 16-bit integer, ±32.767 at the usual scale (trained weights stay under ±3). */
const STORED_MIN = -32768;
const STORED_MAX = 32767;

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

/** The features and their weights as the file stores them (see {@link packWeights}). */
export interface PackedWeights {
  /** Feature keys, sorted so that a retrained model's diff shows the words it gained and lost. */
  readonly features: readonly string[];
  /** `APPRAISAL_LABELS.length` integers a feature, in the features' order: 16-bit little-endian, in base64. */
  readonly weights: string;
}

/**
 * The weights file (`models/appraisal.json`) as JSON. The weights are one base64 string, not a JSON
 * array a feature: parsing 350,000 numbers into 58,000 arrays took most of a 150 ms start-up budget,
 * and a string parses in one step.
 */
export interface ModelFile extends ModelProvenance, PackedWeights {
  readonly format: typeof MODEL_FORMAT;
  readonly labels: readonly string[];
  readonly scale: number;
  readonly bias: readonly number[];
}

export class ModelFileError extends Error {
  override readonly name = 'ModelFileError';
}

/** 16-bit integers' bytes between the machine's order and the file's (little-endian); a swap is its own inverse. */
function littleEndian(bytes: Buffer): Buffer {
  return endianness() === 'LE' ? bytes : bytes.swap16();
}

/** Sorts the features and stores their integer weights (one per label each); throws on a weight 16 bits cannot hold. */
export function packWeights(rows: Readonly<Record<string, readonly number[]>>): PackedWeights {
  const width = APPRAISAL_LABELS.length;
  const features = Object.keys(rows).sort();
  const stored = new Int16Array(features.length * width);
  features.forEach((feature, row) => {
    const weights = rows[feature]!;
    if (weights.length !== width) throw new ModelFileError(`feature ${JSON.stringify(feature)} must hold ${width} weights`);
    weights.forEach((weight, k) => {
      if (!Number.isInteger(weight) || weight < STORED_MIN || weight > STORED_MAX)
        throw new ModelFileError(`feature ${JSON.stringify(feature)}: weight ${weight} is not a 16-bit integer`);
      stored[row * width + k] = weight;
    });
  });
  const bytes = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
  return { features, weights: littleEndian(Buffer.from(bytes)).toString('base64') };
}

function storedWeights(file: ModelFile, width: number): Int16Array {
  if (typeof file.weights !== 'string') throw new ModelFileError('weights must be a base64 string');
  const bytes = littleEndian(Buffer.from(file.weights, 'base64'));
  const expected = file.features.length * width;
  if (bytes.length !== expected * 2)
    throw new ModelFileError(
      `weights hold ${bytes.length / 2} numbers, expected ${expected} (${width} for each of ${file.features.length} features)`,
    );
  // A copy, so that the integers start on an even byte whatever the buffer pool did.
  return new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
}

function rowsOf(features: unknown): Map<string, number> {
  if (!Array.isArray(features) || !features.every((feature) => typeof feature === 'string'))
    throw new ModelFileError('features must be a list of keys');
  const keys = features as string[];
  const rows = new Map<string, number>();
  for (let row = 0; row < keys.length; row++) rows.set(keys[row]!, row);
  if (rows.size < keys.length) {
    const twice = keys.find((key, row) => rows.get(key) !== row);
    throw new ModelFileError(`feature ${JSON.stringify(twice)} appears twice`);
  }
  return rows;
}

/** The model a parsed weights file holds; throws `ModelFileError` naming what is wrong. */
export function modelFromFile(file: ModelFile): AppraisalModel {
  if (file.format !== MODEL_FORMAT) throw new ModelFileError(`format is ${JSON.stringify(file.format)}, expected ${MODEL_FORMAT}`);
  if (JSON.stringify(file.labels) !== JSON.stringify(APPRAISAL_LABELS))
    throw new ModelFileError(`labels are ${JSON.stringify(file.labels)}, expected ${JSON.stringify(APPRAISAL_LABELS)}`);
  const width = APPRAISAL_LABELS.length;
  if (!(typeof file.scale === 'number' && file.scale > 0 && Number.isFinite(file.scale)))
    throw new ModelFileError('scale must be a positive number');
  if (!(Array.isArray(file.bias) && file.bias.length === width && file.bias.every(Number.isFinite)))
    throw new ModelFileError(`bias must hold ${width} numbers`);
  return {
    rows: rowsOf(file.features),
    weights: storedWeights(file, width),
    scale: file.scale,
    bias: file.bias.map((value) => value / file.scale),
  };
}

/** Parses the weights file's bytes (an ASCII file, as training writes it, is decoded without a UTF-8 pass). */
export function parseModelFile(bytes: Buffer | string): ModelFile {
  const text = typeof bytes === 'string' ? bytes : bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
  let file: unknown;
  try {
    file = JSON.parse(text);
  } catch (error) {
    throw new ModelFileError(`not JSON (${(error as Error).message})`);
  }
  if (typeof file !== 'object' || file === null || !('features' in file)) throw new ModelFileError('not a weights file: no features');
  return file as ModelFile;
}
