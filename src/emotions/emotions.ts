import type { Static } from 'typebox';
// Type-only: the schemas (typebox's builder, some 370 modules) load only where events are validated,
// not on the way to `hub serve`'s first answer; the types below are still derived from them.
import type {
  AppraisalSchema,
  AppraisalScoresSchema,
  AvatarShapeSchema,
  EmotionDeltasSchema,
  EmotionStateSchema,
  EmotionsSchema,
  MoodChangeSchema,
  SentimentSchema,
} from './schemas.js';
import type { EmotionName } from './names.js';

// The names both these types and their schemas are built from: here for every importer of the emotions' vocabulary.
export { AVATAR_SHAPES, EMOTION_NAMES, SENTIMENT_LABELS, type EmotionName, type SentimentLabel } from './names.js';

/**
 * One number per emotion, `value(name)` called in the order of {@link EMOTION_NAMES}. Spelled out
 * as a literal rather than built with `Object.fromEntries`: every such object then has the same
 * hidden class, which the bus, the prompt and the response serializers read on every chat.
 */
export function emotionRecord(value: (name: EmotionName) => number): Record<EmotionName, number> {
  return { joy: value('joy'), sadness: value('sadness'), anger: value('anger'), fear: value('fear'), curiosity: value('curiosity') };
}

/** Each value lies in 0..1; stored unrounded, rounded to 2 decimals only in responses. */
export type Emotions = Readonly<Static<typeof EmotionsSchema>>;

export type AvatarShape = Static<typeof AvatarShapeSchema>;

/** The sentiment of the last analysed user message, as `GET /api/avatar` reports it. */
export type Sentiment = Readonly<Static<typeof SentimentSchema>>;

/** How one message reads: each emotion's probability, neutral's, and the strongest of the five (src/appraisal/). */
export type AppraisalScores = Readonly<Static<typeof AppraisalScoresSchema>>;

/** The scores and the words that weighed most: what the visitor who wrote the message is shown. */
export type Appraisal = Readonly<Static<typeof AppraisalSchema>>;

/** Signed changes applied to each emotion by one drift tick. */
export type EmotionDeltas = Readonly<Static<typeof EmotionDeltasSchema>>;

/** Everything the service remembers across restarts: numbers and labels, never user text. */
export type EmotionState = Readonly<Static<typeof EmotionStateSchema>>;

/**
 * One change of the mood: a processed chat (decay, then its sentiment), a drift tick (its deltas),
 * or a shared snapshot taken whole. Only these change the emotions; folding them in ledger order
 * (`foldMoodChange`) gives the state.
 */
export type MoodChange = Readonly<Static<typeof MoodChangeSchema>>;

// Each object schema names every emotion; this fails to compile when EMOTION_NAMES and they drift apart.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
export type SchemasNameEveryEmotion = [Assert<Same<keyof Emotions, EmotionName>>, Assert<Same<keyof EmotionDeltas, EmotionName>>];
