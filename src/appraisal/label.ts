import { EMOTION_NAMES, type AppraisalScores } from '../emotions/emotions.js';

// Apart from the model: what names a reading loads no tokenizer (the terminal's narrator runs before the server listens).

/** What the classifier tells apart: the five emotions, then neutral (a message that expresses none). */
export const APPRAISAL_LABELS = [...EMOTION_NAMES, 'neutral'] as const;
export type AppraisalLabel = (typeof APPRAISAL_LABELS)[number];

/** The label with the highest probability, neutral included: the reading of a message as one class. */
export function topLabel(appraisal: AppraisalScores): AppraisalLabel {
  return appraisal.neutral > appraisal.emotions[appraisal.strongest] ? 'neutral' : appraisal.strongest;
}
