import {
  emotionRecord,
  type Appraisal,
  type AppraisalScores,
  type EmotionDeltas,
  type EmotionName,
  type Emotions,
  type Sentiment,
} from './emotions.js';

/** The state a fresh service starts from: mildly content and curious, joy and curiosity in the middle. */
export const DEFAULT_EMOTIONS: Emotions = { joy: 0.5, sadness: 0.2, anger: 0.1, fear: 0.1, curiosity: 0.5 };

/** docs/specification.md#states: every emotion loses 3 percent per processed chat message. */
export const DECAY_FACTOR = 0.97;

/**
 * How one message's appraisal pushes each emotion (docs/specification.md#how-a-message-moves-the-mood):
 * `gain = rise·p(emotion) − fall·p(the other four)`, so the emotion the message expresses rises
 * most, the others ease, and a neutral message (p(neutral) near 1) moves almost nothing. The gain
 * moves the value that fraction of the way towards 1 or 0 (`saturate`): never pinned at a bound.
 */
export const APPRAISAL_GAINS = { rise: 0.45, fall: 0.25 } as const;

/**
 * The rule of chats committed before the appraisal, kept so that their ledgers and event logs
 * replay to the state they made: how one message's sentiment pushes each emotion: `gain = positive·pos + negative·neg + neutral·(1 − max(pos, neg))`.
 * A positive gain moves the value that fraction of the way towards 1, a negative one that fraction
 * towards 0, so a value approaches the bounds but a message never pins it there.
 */
export const SENTIMENT_WEIGHTS: Readonly<Record<EmotionName, { positive: number; negative: number; neutral: number }>> = {
  joy: { positive: 0.45, negative: -0.3, neutral: 0 },
  sadness: { positive: -0.3, negative: 0.35, neutral: 0 },
  anger: { positive: -0.15, negative: 0.3, neutral: 0 },
  fear: { positive: -0.1, negative: 0.2, neutral: 0 },
  curiosity: { positive: 0.1, negative: -0.05, neutral: 0.2 },
};

/** Largest change one drift tick makes to one emotion, either way. */
export const DRIFT_AMPLITUDE = 0.05;

export function clamp01(value: number): number {
  return Number.isNaN(value) ? 0 : Math.min(1, Math.max(0, value));
}

function mapEmotions(f: (name: EmotionName, value: number) => number, emotions: Emotions): Emotions {
  return emotionRecord((name) => clamp01(f(name, emotions[name])));
}

/** The 3 percent decay of one interaction. */
export function decay(emotions: Emotions): Emotions {
  return mapEmotions((_, value) => value * DECAY_FACTOR, emotions);
}

/** Moves `value` the fraction `gain` (−1..1) of the way towards 1 (gain > 0) or 0 (gain < 0). */
export function saturate(value: number, gain: number): number {
  const g = Math.max(-1, Math.min(1, gain));
  return g >= 0 ? value + g * (1 - value) : value + g * value;
}

/** The effect of one appraised message, without the decay. */
export function applyAppraisal(emotions: Emotions, appraisal: Pick<AppraisalScores, 'emotions' | 'neutral'>): Emotions {
  const expressed = 1 - appraisal.neutral;
  return mapEmotions((name, value) => {
    const p = appraisal.emotions[name];
    return saturate(value, APPRAISAL_GAINS.rise * p - APPRAISAL_GAINS.fall * Math.max(0, expressed - p));
  }, emotions);
}

/** One processed chat message: decay first, then the message's appraisal. */
export function processMessage(emotions: Emotions, appraisal: Pick<AppraisalScores, 'emotions' | 'neutral'>): Emotions {
  return applyAppraisal(decay(emotions), appraisal);
}

/** The effect of one message by its sentiment alone (chats committed before the appraisal), without the decay. */
export function applySentiment(emotions: Emotions, sentiment: Sentiment): Emotions {
  const neutrality = 1 - Math.max(sentiment.positive, sentiment.negative);
  return mapEmotions((name, value) => {
    const w = SENTIMENT_WEIGHTS[name];
    return saturate(value, w.positive * sentiment.positive + w.negative * sentiment.negative + w.neutral * neutrality);
  }, emotions);
}

/** A chat committed before the appraisal: decay first, then its sentiment. */
export function processSentimentMessage(emotions: Emotions, sentiment: Sentiment): Emotions {
  return applySentiment(decay(emotions), sentiment);
}

/** One drift tick: adds the deltas the tick carries, clamped to 0..1. */
export function applyDrift(emotions: Emotions, deltas: EmotionDeltas): Emotions {
  return mapEmotions((name, value) => value + deltas[name], emotions);
}

/** Draws one drift tick's deltas, each uniform in ±DRIFT_AMPLITUDE, from the injected source. */
export function driftDeltas(random: () => number): EmotionDeltas {
  return emotionRecord(() => (random() * 2 - 1) * DRIFT_AMPLITUDE);
}

/** Responses show 2 decimals; stored values keep full precision. */
export function roundEmotions(emotions: Emotions): Emotions {
  // Spelled out rather than mapped over EMOTION_NAMES: every polled response goes through here.
  return {
    joy: round2(emotions.joy),
    sadness: round2(emotions.sadness),
    anger: round2(emotions.anger),
    fear: round2(emotions.fear),
    curiosity: round2(emotions.curiosity),
  };
}

/** The 2 decimals every number in a response shows. */
export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/**
 * The reading of a message as one class, neutral included: neutral only when it weighs more than
 * the strongest emotion. The appraisal's own `reading` when it has one.
 */
export function readingOf(appraisal: AppraisalScores & { readonly reading?: EmotionName | 'neutral' }): EmotionName | 'neutral' {
  return appraisal.reading ?? (appraisal.neutral > appraisal.emotions[appraisal.strongest] ? 'neutral' : appraisal.strongest);
}

/** An appraisal as the API and `hub appraise` show it: probabilities to 2 decimals, like every number the service answers. */
export function roundAppraisal(appraisal: Appraisal): Appraisal {
  return {
    emotions: roundEmotions(appraisal.emotions),
    neutral: round2(appraisal.neutral),
    strongest: appraisal.strongest,
    // Decided before rounding; a message stored before `reading` existed gets the same rule.
    reading: readingOf(appraisal),
    ...(appraisal.also === undefined ? {} : { also: appraisal.also }),
    cues: appraisal.cues,
    ...(appraisal.source === undefined ? {} : { source: appraisal.source }),
  };
}
