import { APPRAISAL_LABELS, type AppraisalModel } from '../../src/appraisal/appraisal.js';
import { readTokens } from '../../src/appraisal/features.js';

/**
 * Weights that read every message as neutral (p(neutral) ≈ 1), so that a chat only decays the mood:
 * what the seed's arithmetic can be checked against. The two words the startup probe reads
 * ("furious", "terrified") still lean their way, so that the system accepts the weights.
 */
export function neutralReader(): AppraisalModel {
  const width = APPRAISAL_LABELS.length;
  const rows = new Map([
    [readTokens('furious')[0]!.key, 0],
    [readTokens('terrified')[0]!.key, 1],
  ]);
  const weights = new Float64Array(rows.size * width);
  weights[0 * width + APPRAISAL_LABELS.indexOf('anger')] = 1;
  weights[1 * width + APPRAISAL_LABELS.indexOf('fear')] = 1;
  return { rows, weights, bias: APPRAISAL_LABELS.map((label) => (label === 'neutral' ? 60 : 0)) };
}
