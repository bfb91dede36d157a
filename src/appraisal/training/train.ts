import { seededRandom } from '../../runtime/random.js';
import { APPRAISAL_LABELS } from '../appraisal.js';
import { featuresOf, readTokens } from '../features.js';
import type { Example } from './goemotions.js';

/** The training's knobs, chosen on the dev split (docs/appraisal.md says how). */
export interface TrainingSettings {
  /** A feature seen in fewer training comments is left out. */
  readonly minCount: number;
  readonly epochs: number;
  /** AdaGrad's base step. */
  readonly learningRate: number;
  /** L2 penalty, applied to the weights a comment touches. */
  readonly l2: number;
  /** Class weights are (balanced weight)^power: 0 is none, 1 fully balanced. */
  readonly classWeightPower: number;
  /** The weight of a seed word's example (see seed-words.ts) against a comment's 1: small, so the comments decide where they speak. */
  readonly seedWeight: number;
  /** How many times each seed word's example is visited per epoch: AdaGrad's steps shrink with every visit, so a word no comment holds needs several to weigh. */
  readonly seedRepeats: number;
  /** Seeds the order comments are visited in: the only randomness, so a re-run gives the same weights. */
  readonly seed: number;
}

export const DEFAULT_SETTINGS: TrainingSettings = {
  minCount: 2,
  epochs: 3,
  learningRate: 0.1,
  l2: 3e-5,
  classWeightPower: 0.25,
  seedWeight: 0.3,
  seedRepeats: 10,
  seed: 20200705,
};

/** A trained linear model: one row of weights per feature, in `features` order. */
export interface TrainedModel {
  readonly features: readonly string[];
  readonly weights: Float64Array;
  readonly bias: Float64Array;
}

const LABELS = APPRAISAL_LABELS.length;

/** Each label's weight: (comments / (labels × the label's share of comments))^power; a comment with two labels counts half for each. */
function classWeights(examples: readonly Example[], power: number): number[] {
  const counts = new Array<number>(LABELS).fill(0);
  for (const { labels } of examples) for (const label of labels) counts[label]! += 1 / labels.length;
  return counts.map((count) => (count === 0 ? 0 : (examples.length / (LABELS * count)) ** power));
}

/**
 * Multinomial logistic regression over the comments' features (words and word pairs, present or
 * not), trained by stochastic gradient descent with AdaGrad steps. A comment with several labels
 * is one example whose target spreads evenly over them. Deterministic: the seed fixes the order.
 *
 * `weak` examples (a seed word and its emotion) are visited among the comments at `seedWeight`;
 * each teaches only its own word's weights (not the bias, not the lexicon's), and its word is kept
 * however rarely the comments use it: that is how "livid" gets a weight the comments never gave it.
 */
export function train(
  examples: readonly Example[],
  settings: TrainingSettings = DEFAULT_SETTINGS,
  weak: readonly Example[] = [],
): TrainedModel {
  const featureLists = examples.map(({ text }) => featuresOf(text));
  const repeated = Array.from({ length: settings.seedRepeats }, () => weak).flat();
  const weakLists = repeated.map(({ text }) => [...new Set(readTokens(text).map(({ key }) => key))]);
  const seen = new Map<string, number>();
  for (const list of featureLists) for (const feature of list) seen.set(feature, (seen.get(feature) ?? 0) + 1);
  const rows = new Map<string, number>();
  for (const [feature, count] of seen) if (count >= settings.minCount) rows.set(feature, rows.size);
  for (const list of weakLists) for (const feature of list) if (!rows.has(feature)) rows.set(feature, rows.size);
  const inputs = [...featureLists, ...weakLists].map((list) => list.flatMap((feature) => rows.get(feature) ?? []));
  const all = [...examples, ...repeated];

  // The bias is the last row, present in every comment.
  const biasRow = rows.size;
  const weights = new Float64Array((rows.size + 1) * LABELS);
  const squares = new Float64Array(weights.length);
  const weightOf = classWeights(examples, settings.classWeightPower);
  const random = seededRandom(settings.seed);
  const order = all.map((_, index) => index);
  const p = new Float64Array(LABELS);
  const target = new Float64Array(LABELS);

  const step = (row: number, gradients: Float64Array): void => {
    const offset = row * LABELS;
    for (let k = 0; k < LABELS; k++) {
      const g = gradients[k]! + settings.l2 * weights[offset + k]!;
      squares[offset + k]! += g * g;
      weights[offset + k]! -= (settings.learningRate * g) / Math.sqrt(squares[offset + k]! + 1e-8);
    }
  };

  for (let epoch = 0; epoch < settings.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const n of order) {
      const features = inputs[n]!;
      const { labels } = all[n]!;
      const isWeak = n >= examples.length;
      for (let k = 0; k < LABELS; k++) p[k] = weights[biasRow * LABELS + k]!;
      for (const row of features) for (let k = 0; k < LABELS; k++) p[k]! += weights[row * LABELS + k]!;
      const top = Math.max(...p);
      let sum = 0;
      for (let k = 0; k < LABELS; k++) sum += p[k] = Math.exp(p[k]! - top);
      target.fill(0);
      let exampleWeight = 0;
      for (const label of labels) {
        target[label] = 1 / labels.length;
        exampleWeight += (isWeak ? settings.seedWeight : weightOf[label]!) / labels.length;
      }
      // The gradient of the weighted cross-entropy is the same for every feature of the comment.
      for (let k = 0; k < LABELS; k++) p[k] = (p[k]! / sum - target[k]!) * exampleWeight;
      for (const row of features) step(row, p);
      if (!isWeak) step(biasRow, p);
    }
  }
  return { features: [...rows.keys()], weights: weights.subarray(0, rows.size * LABELS), bias: weights.slice(biasRow * LABELS) };
}
