import { APPRAISAL_LABELS } from '../appraisal.js';
import { MODEL_FORMAT, WEIGHT_SCALE, type ModelFile, type ModelProvenance } from '../model-file.js';
import type { TrainedModel } from './train.js';

const toScale = (value: number): number => Math.round(value * WEIGHT_SCALE);

/** The weights file of a trained model, in integer thousandths (about 2.4 MB, 0.95 MB gzipped in the package). */
export function packModel(model: TrainedModel, provenance: ModelProvenance): ModelFile {
  const width = APPRAISAL_LABELS.length;
  const features: Record<string, number[]> = {};
  model.features.forEach((feature, row) => {
    features[feature] = Array.from(model.weights.subarray(row * width, (row + 1) * width), toScale);
  });
  return {
    format: MODEL_FORMAT,
    ...provenance,
    labels: APPRAISAL_LABELS,
    scale: WEIGHT_SCALE,
    bias: Array.from(model.bias, toScale),
    features,
  };
}

/** The file's text: one feature a line, so that a retrained model's diff is readable. */
export function serializeModelFile(file: ModelFile): string {
  const { features, ...head } = file;
  const lines = Object.entries(features).map(([key, weights]) => `${JSON.stringify(key)}:${JSON.stringify(weights)}`);
  const headText = JSON.stringify(head, null, 1).slice(0, -2);
  return `${headText},\n"features":{\n${lines.join(',\n')}\n}}\n`;
}
