import { APPRAISAL_LABELS, type AppraisalLabel, type AppraisalModel } from '../../src/appraisal/appraisal.js';
import { readTokens } from '../../src/appraisal/features.js';

/** Weights in which each word of `leanings` adds `weight` (in logits) to its label, over a bias of `neutralBias` for neutral. */
export function wordReader(leanings: Readonly<Record<string, AppraisalLabel>>, weight: number, neutralBias: number): AppraisalModel {
  const width = APPRAISAL_LABELS.length;
  const words = Object.entries(leanings);
  const rows = new Map(words.map(([word], row) => [readTokens(word)[0]!.key, row]));
  const weights = new Float64Array(rows.size * width);
  words.forEach(([, label], row) => {
    weights[row * width + APPRAISAL_LABELS.indexOf(label)] = weight;
  });
  return { rows, weights, scale: 1, bias: APPRAISAL_LABELS.map((label) => (label === 'neutral' ? neutralBias : 0)) };
}

/**
 * Weights that read every message as neutral (p(neutral) ≈ 1), so that a chat only decays the mood:
 * what the seed's arithmetic can be checked against. The two words the startup probe reads
 * ("furious", "terrified") still lean their way, so that the system accepts the weights.
 */
export function neutralReader(): AppraisalModel {
  return wordReader({ furious: 'anger', terrified: 'fear' }, 1, 60);
}
