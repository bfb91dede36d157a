import { APPRAISAL_LABELS } from '../appraisal.js';
import { MODEL_FORMAT, WEIGHT_SCALE, packWeights, type ModelFile, type ModelProvenance } from '../model-file.js';
import type { TrainedModel } from './train.js';

/** The weights file of a trained model, in integer thousandths (about 1.6 MB, 0.8 MB gzipped in the package). */
export function packModel(model: TrainedModel, provenance: ModelProvenance, scale = WEIGHT_SCALE): ModelFile {
  const width = APPRAISAL_LABELS.length;
  const toScale = (value: number): number => Math.round(value * scale);
  const rows: Record<string, number[]> = {};
  model.features.forEach((feature, row) => {
    rows[feature] = Array.from(model.weights.subarray(row * width, (row + 1) * width), toScale);
  });
  return {
    format: MODEL_FORMAT,
    ...provenance,
    labels: APPRAISAL_LABELS,
    scale,
    bias: Array.from(model.bias, toScale),
    ...packWeights(rows),
  };
}

/** JSON with every character beyond ASCII (only ever inside a string) as its escape: the loader then decodes the file without a UTF-8 pass. */
const toAscii = (json: string): string =>
  json.replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** The file's text: one feature key a line, so that a retrained model's diff shows the words it gained and lost. */
export function serializeModelFile(file: ModelFile): string {
  const { features, weights, ...head } = file;
  const headText = JSON.stringify(head, null, 1).slice(0, -2);
  const keys = features.map((feature) => JSON.stringify(feature)).join(',\n');
  return toAscii(`${headText},\n"features":[\n${keys}\n],\n"weights":${JSON.stringify(weights)}\n}\n`);
}
