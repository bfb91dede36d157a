import type { AppraisalScores } from '../../emotions/emotions.js';

/**
 * How disgust, one of GoEmotions' seven Ekman labels that none of our labels stands for, is scored:
 * `as-anger` predicts it with anger's probability (the model was trained with disgust read as
 * anger, so its anger means "anger or disgust"); `never` never predicts it (its F1 is 0).
 */
export type DisgustRule = 'as-anger' | 'never';

/** Each Ekman label's score from our reading; surprise is curiosity (the surprise group is what curiosity was trained on). */
const EKMAN_SCORE: Readonly<Record<string, (scores: AppraisalScores, disgust: DisgustRule) => number>> = {
  anger: (s) => s.emotions.anger,
  disgust: (s, disgust) => (disgust === 'as-anger' ? s.emotions.anger : 0),
  fear: (s) => s.emotions.fear,
  joy: (s) => s.emotions.joy,
  neutral: (s) => s.neutral,
  sadness: (s) => s.emotions.sadness,
  surprise: (s) => s.emotions.curiosity,
};

/** A reading's score for each Ekman label of `names` (the lines of labels.txt, in their order). */
export function ekmanScores(scores: AppraisalScores, names: readonly string[], disgust: DisgustRule): number[] {
  return names.map((name) => {
    const score = EKMAN_SCORE[name];
    if (score === undefined) throw new Error(`no Ekman label ${JSON.stringify(name)}`);
    return score(scores, disgust);
  });
}

/** One comment: a score per label, and the labels its raters gave (indices). */
export interface Scored {
  readonly scores: readonly number[];
  readonly labels: readonly number[];
}

export interface MultiLabelScore {
  readonly threshold: number;
  /** Per label, F1 of "predicted" (score ≥ threshold) against "given by the raters", over all comments. */
  readonly f1: readonly number[];
  readonly macroF1: number;
}

/**
 * GoEmotions' own measure: each label is a yes/no question on every comment, answered yes when
 * its score reaches the threshold (a comment may get several labels, or none); F1 per label
 * (0 when the label is neither given nor predicted), macro-F1 their plain mean.
 */
export function multiLabelF1(examples: readonly Scored[], labelCount: number, threshold: number): MultiLabelScore {
  const truePositives = new Array<number>(labelCount).fill(0);
  const predicted = new Array<number>(labelCount).fill(0);
  const actual = new Array<number>(labelCount).fill(0);
  for (const { scores, labels } of examples) {
    for (const label of labels) actual[label]!++;
    for (let k = 0; k < labelCount; k++) {
      if (scores[k]! < threshold) continue;
      predicted[k]!++;
      if (labels.includes(k)) truePositives[k]!++;
    }
  }
  const f1 = truePositives.map((tp, k) => (predicted[k]! + actual[k]! === 0 ? 0 : (2 * tp) / (predicted[k]! + actual[k]!)));
  return { threshold, f1, macroF1: f1.reduce((sum, value) => sum + value, 0) / labelCount };
}

/** The thresholds tried: 0.01, 0.02, …, 0.99. */
export const THRESHOLDS: readonly number[] = Array.from({ length: 99 }, (_, k) => (k + 1) / 100);

/** The one global threshold (of `candidates`) that maximises macro-F1 on `examples`; the first on a tie (the lowest of THRESHOLDS). */
export function bestThreshold(examples: readonly Scored[], labelCount: number, candidates = THRESHOLDS): MultiLabelScore {
  let best: MultiLabelScore | undefined;
  for (const threshold of candidates) {
    const score = multiLabelF1(examples, labelCount, threshold);
    if (best === undefined || score.macroF1 > best.macroF1) best = score;
  }
  if (best === undefined) throw new Error('no threshold to try');
  return best;
}
