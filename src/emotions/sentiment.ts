import Sentiment from 'sentiment';
import type { Sentiment as SentimentResult } from './emotions.js';

/** AFINN weight at which a side's strength reaches one half; one strong word ("love", 3) gives 0.43. */
const HALF_STRENGTH_WEIGHT = 4;

export interface SentimentAnalysis {
  readonly sentiment: SentimentResult;
  /** The AFINN sum (negation applied), kept for the event log. */
  readonly score: number;
}

const analyzer = new Sentiment();

function strength(weight: number): number {
  return weight / (weight + HALF_STRENGTH_WEIGHT);
}

/**
 * Scores English text with the `sentiment` package (AFINN-165 and emoji). The label follows the
 * sign of the total; `positive` and `negative` are the strengths of each side's words, w/(w+4),
 * so "good but awful" is mixed rather than cancelled out. Deterministic, no I/O.
 */
export function analyzeSentiment(text: string): SentimentAnalysis {
  const result = analyzer.analyze(text);
  let positive = 0;
  let negative = 0;
  for (const entry of result.calculation) {
    for (const weight of Object.values(entry)) {
      if (weight > 0) positive += weight;
      else negative -= weight;
    }
  }
  const label = result.score > 0 ? 'positive' : result.score < 0 ? 'negative' : 'neutral';
  return { sentiment: { sentiment: label, positive: strength(positive), negative: strength(negative) }, score: result.score };
}
