import { Type } from 'typebox';
import { AVATAR_SHAPES, SENTIMENT_LABELS } from './emotions.js';

// The JSON schemas the emotion types are derived from (src/emotions/emotions.ts), used where events
// are validated: the event catalogue (src/bus/events.ts) and the event-log reader.

const Level = Type.Number({ minimum: 0, maximum: 1 });

/** The emotions, each in 0..1 (JSON schema of `Emotions`). */
export const EmotionsSchema = Type.Object({ joy: Level, sadness: Level, anger: Level, fear: Level, curiosity: Level });

export const AvatarShapeSchema = Type.Enum(AVATAR_SHAPES);

/** JSON schema of `Sentiment`. */
export const SentimentSchema = Type.Object({
  sentiment: Type.Enum(SENTIMENT_LABELS),
  /** Strength of the message's positive words, 0..1 (0: none; saturates towards 1). */
  positive: Level,
  /** Strength of the message's negative words, 0..1 (0: none; saturates towards 1). */
  negative: Level,
});

const Delta = Type.Number();

/** JSON schema of `EmotionDeltas`: every emotion's change is there. */
export const EmotionDeltasSchema = Type.Object({ joy: Delta, sadness: Delta, anger: Delta, fear: Delta, curiosity: Delta });
