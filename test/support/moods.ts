import type { Appraisal, Emotions } from '../../src/emotions/emotions.js';

/** A mood, the five values in the bars' order. */
export const mood = (joy: number, sadness: number, anger: number, fear: number, curiosity: number): Emotions => ({
  joy,
  sadness,
  anger,
  fear,
  curiosity,
});

/** One mood strongest in each emotion (the ones docs/avatar.md pictures). */
export const FIVE_MOODS = {
  joy: mood(0.89, 0.08, 0.05, 0.06, 0.45),
  sadness: mood(0.1, 0.85, 0.12, 0.22, 0.18),
  anger: mood(0.08, 0.3, 0.88, 0.12, 0.2),
  fear: mood(0.08, 0.3, 0.1, 0.86, 0.3),
  curiosity: mood(0.45, 0.08, 0.05, 0.1, 0.9),
} as const satisfies Record<string, Emotions>;

/** How "I am furious, I hate this" reads: what a chat stand-in replies with when a test gives no appraisal. */
export const ANGRY_APPRAISAL: Appraisal = {
  emotions: mood(0.02, 0.03, 0.88, 0.01, 0.02),
  neutral: 0.04,
  strongest: 'anger',
  cues: ['furious', 'hate'],
};
