import { EMOTION_NAMES, type AppraisalScores } from '../emotions/emotions.js';
import { readingOf } from '../emotions/model.js';

// Apart from the model: what names a reading loads no tokenizer (the terminal's narrator runs before the server listens).

/** What the classifier tells apart: the five emotions, then neutral (a message that expresses none). */
export const APPRAISAL_LABELS = [...EMOTION_NAMES, 'neutral'] as const;
export type AppraisalLabel = (typeof APPRAISAL_LABELS)[number];

/** The label with the highest probability, neutral included: the reading of a message as one class. */
export function topLabel(appraisal: AppraisalScores & { readonly reading?: AppraisalLabel }): AppraisalLabel {
  return readingOf(appraisal);
}
