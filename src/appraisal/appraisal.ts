import { EMOTION_NAMES, type Appraisal } from '../emotions/emotions.js';
import { readingOf } from '../emotions/model.js';
import { APPRAISAL_LABELS } from './label.js';
import { lexiconHits, mayCue, pairKey, readTokens, type ReadToken } from './features.js';

export { APPRAISAL_LABELS, topLabel, type AppraisalLabel } from './label.js';
const LABELS = APPRAISAL_LABELS.length;
const NEUTRAL = LABELS - 1;

/** A linear model over a message's features: one weight per feature and label, and a bias per label. */
export interface AppraisalModel {
  /** Feature key → its row in `weights`. */
  readonly rows: ReadonlyMap<string, number>;
  /** Row-major, `APPRAISAL_LABELS.length` weights a row, as stored: a weight is `weights[i] / scale`. */
  readonly weights: ArrayLike<number>;
  readonly scale: number;
  readonly bias: readonly number[];
}

export type { Appraisal, AppraisalScores } from '../emotions/emotions.js';

export const MAX_CUES = 3;

/** A feature present in the message: its row, and the tokens it credits as cues (none for a word pair or a word that may not be one). */
interface Hit {
  readonly row: number;
  readonly cues: readonly number[];
}

/** The rows of the model's features found in the message, each feature once (presence, not counts, as in training). */
function hitsOf(model: AppraisalModel, text: string, tokens: readonly ReadToken[]): Hit[] {
  const hits: Hit[] = [];
  const seen = new Set<string>();
  const look = (key: string, cues: readonly number[]): void => {
    if (seen.has(key)) return;
    seen.add(key);
    const row = model.rows.get(key);
    if (row !== undefined) hits.push({ row, cues });
  };
  const cueable = tokens.map(({ word, mark }) => !mark && mayCue(word));
  for (let i = 0; i < tokens.length; i++) {
    look(tokens[i]!.key, cueable[i] ? [i] : []);
    // A pair's weight mostly belongs to the word that carries it: it is no cue of its own.
    if (i + 1 < tokens.length) look(pairKey(tokens[i]!, tokens[i + 1]!), []);
  }
  for (const { key, words } of lexiconHits(text)) {
    look(
      key,
      tokens.flatMap(({ word }, index) => (cueable[index] && words.includes(word) ? [index] : [])),
    );
  }
  return hits;
}

/** Softmax of the bias plus the rows' weights. */
function probabilities(model: AppraisalModel, hits: readonly Hit[]): number[] {
  const sums = new Array<number>(LABELS).fill(0);
  for (const { row } of hits) {
    const offset = row * LABELS;
    for (let k = 0; k < LABELS; k++) sums[k]! += model.weights[offset + k]!;
  }
  const z = model.bias.map((bias, k) => bias + sums[k]! / model.scale);
  const top = Math.max(...z);
  let sum = 0;
  for (let k = 0; k < LABELS; k++) {
    z[k] = Math.exp(z[k]! - top);
    sum += z[k]!;
  }
  return z.map((value) => value / sum);
}

/** How far a word must push the reading's emotion (in logits) to count as a cue: "so" and "the" do not. */
export const CUE_MIN_PUSH = 0.3;

/**
 * The words that pushed `label` most: each feature's weight for the label above its mean weight
 * over all labels (what it adds to the label's odds against the others), credited to the words it
 * stands for: a word its own, a lexicon weight the words that carry it.
 */
function cuesOf(model: AppraisalModel, tokens: readonly ReadToken[], hits: readonly Hit[], label: number): string[] {
  const pushes = new Map<string, number>();
  for (const { row, cues } of hits) {
    if (cues.length === 0) continue;
    const offset = row * LABELS;
    let sum = 0;
    for (let k = 0; k < LABELS; k++) sum += model.weights[offset + k]!;
    const push = (model.weights[offset + label]! - sum / LABELS) / model.scale;
    for (const word of new Set(cues.map((index) => tokens[index]!.word))) pushes.set(word, (pushes.get(word) ?? 0) + push);
  }
  return [...pushes]
    .filter(([, push]) => push >= CUE_MIN_PUSH)
    .sort((a, b) => b[1] - a[1])
    .slice(0, MAX_CUES)
    .map(([word]) => word);
}

/** A second emotion is named when it is at least this share of the reading's probability… */
export const ALSO_SHARE = 1 / 3;
/** …and above this probability. */
export const ALSO_MIN = 0.15;

/** The most probable emotion other than `first` (a label index), the first in EMOTION_NAMES on a tie. */
function bestEmotionBut(p: readonly number[], first: number): number {
  let best = first === 0 ? 1 : 0;
  for (let k = best + 1; k < NEUTRAL; k++) if (k !== first && p[k]! > p[best]!) best = k;
  return best;
}

/**
 * Reads one message: a probability for each emotion and neutral; the strongest of the five (the
 * first in EMOTION_NAMES on a tie); the `reading`, the most probable of the six (neutral only when
 * it is above the strongest emotion: what the page says); `also`, the most probable emotion beside
 * the reading when it weighs at least a third of it and above 0.15 (a message that carries two
 * emotions); and the strongest's cues (at most 3, most weight first, never a stop word, number or
 * punctuation). Pure: the same model and text give the same appraisal.
 */
export function appraise(model: AppraisalModel, text: string): Appraisal {
  const tokens = readTokens(text);
  const hits = hitsOf(model, text, tokens);
  const p = probabilities(model, hits);
  const scores = readingOfProbabilities(p);
  return { ...scores, cues: cuesOf(model, tokens, hits, EMOTION_NAMES.indexOf(scores.strongest)) };
}

/**
 * What six probabilities (the five emotions, then neutral; together 1) read as: the scores, the
 * strongest of the five (the first on a tie), the reading and the second emotion beside it (see
 * {@link appraise}). Whoever read the message, the local model or the chat model, the rule is this one.
 */
export function readingOfProbabilities(p: readonly number[]): Omit<Appraisal, 'cues'> {
  let strongest = 0;
  for (let k = 1; k < NEUTRAL; k++) if (p[k]! > p[strongest]!) strongest = k;
  const scores = {
    emotions: { joy: p[0]!, sadness: p[1]!, anger: p[2]!, fear: p[3]!, curiosity: p[4]! },
    neutral: p[NEUTRAL]!,
    strongest: EMOTION_NAMES[strongest]!,
  };
  const reading = APPRAISAL_LABELS.indexOf(readingOf(scores));
  const second = reading === NEUTRAL ? strongest : bestEmotionBut(p, strongest);
  const also = p[second]! >= p[reading]! * ALSO_SHARE && p[second]! > ALSO_MIN ? { also: EMOTION_NAMES[second]! } : {};
  return { ...scores, reading: APPRAISAL_LABELS[reading]!, ...also };
}
