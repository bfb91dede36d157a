import { readFile } from 'node:fs/promises';
import type { AppraisalModel } from './appraisal.js';
import { modelFromFile, parseModelFile, type ModelFile } from './model-file.js';

/** The weights `npm run train:appraisal` writes and the package ships. */
export const SHIPPED_MODEL_URL = new URL('../../models/appraisal.json', import.meta.url);

export async function readModelFile(url: URL = SHIPPED_MODEL_URL): Promise<ModelFile> {
  return parseModelFile(await readFile(url));
}

let shipped: Promise<AppraisalModel> | undefined;

/** The shipped model, read and built once per process (about 20 ms on an idle machine; the service does it after it listens). */
export function loadShippedModel(): Promise<AppraisalModel> {
  shipped ??= readModelFile().then(modelFromFile);
  // A failed read is not kept: the next caller tries again (and sees the error itself).
  shipped.catch(() => {
    shipped = undefined;
  });
  return shipped;
}
