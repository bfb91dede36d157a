import type { Emotions, Sentiment } from '../emotions/emotions.js';

// Responses show 2 decimals (seed 000); the stored values stay exact.
function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

export function roundEmotions(emotions: Emotions): Emotions {
  return {
    joy: round2(emotions.joy),
    sadness: round2(emotions.sadness),
    anger: round2(emotions.anger),
    fear: round2(emotions.fear),
    curiosity: round2(emotions.curiosity),
  };
}

export function roundSentiment(sentiment: Sentiment): Sentiment {
  return { sentiment: sentiment.sentiment, positive: round2(sentiment.positive), negative: round2(sentiment.negative) };
}
