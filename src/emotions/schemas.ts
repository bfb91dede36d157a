import { Type } from 'typebox';
import { AVATAR_SHAPES, EMOTION_NAMES, SENTIMENT_LABELS } from './names.js';

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

/**
 * JSON schema of `AppraisalScores`: how one message reads, a probability for each emotion and for
 * neutral (together 1), and the most probable of the five emotions. What a chat's mood change
 * carries: numbers only, never the message's words.
 */
export const AppraisalScoresSchema = Type.Object({
  emotions: EmotionsSchema,
  neutral: Level,
  strongest: Type.Enum(EMOTION_NAMES),
  /** Who read it: the local model, or the chat model (`APPRAISAL=model`). Absent on what was read before there was a choice. */
  source: Type.Optional(Type.Enum(['local', 'model'])),
});

/**
 * JSON schema of `Appraisal`: the scores, the reading (the most probable of the five emotions and
 * neutral: what the page says), a second emotion the message also carries, and up to 3 words of the
 * message that weighed most towards `strongest`. `reading` is optional only for what was stored
 * before it existed; every new appraisal and every response has it.
 */
export const AppraisalSchema = Type.Object({
  ...AppraisalScoresSchema.properties,
  reading: Type.Optional(Type.Enum([...EMOTION_NAMES, 'neutral'])),
  also: Type.Optional(Type.Enum(EMOTION_NAMES)),
  cues: Type.Array(Type.String(), { maxItems: 3 }),
});

/** One emotion's change by a drift tick: a tick draws ±0.05, and no change can move a value by more than 1. */
const Delta = Type.Number({ minimum: -1, maximum: 1 });

/** JSON schema of `EmotionDeltas`: every emotion's change is there. */
export const EmotionDeltasSchema = Type.Object({ joy: Delta, sadness: Delta, anger: Delta, fear: Delta, curiosity: Delta });

/** An ISO 8601 time, as the bus stamps events and the state records its last change. */
export const Iso8601Schema = Type.String({ format: 'date-time' });

/** JSON schema of `EmotionState`: the emotions, the avatar's shape, the last sentiment, the time of the last change. */
export const EmotionStateSchema = Type.Object({
  emotions: EmotionsSchema,
  avatarShape: AvatarShapeSchema,
  sentiment: SentimentSchema,
  lastUpdated: Iso8601Schema,
});

/**
 * JSON schema of `MoodChange`, one change of the mood: a committed chat (decay, then its
 * message's appraisal), a drift tick (its deltas), or a whole state taken from elsewhere (a
 * shared snapshot a replica adopts). `at` is when it took effect. A chat change written before
 * the appraisal has its sentiment only, and folds by the sentiment rule it was made with.
 */
export const MoodChangeSchema = Type.Union([
  Type.Object({
    kind: Type.Literal('chat'),
    correlationId: Type.String(),
    sentiment: SentimentSchema,
    appraisal: Type.Optional(AppraisalScoresSchema),
    at: Iso8601Schema,
  }),
  Type.Object({ kind: Type.Literal('drift'), deltas: EmotionDeltasSchema, at: Iso8601Schema }),
  Type.Object({ kind: Type.Literal('snapshot'), state: EmotionStateSchema, at: Iso8601Schema }),
]);
