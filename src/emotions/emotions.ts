import { Type, type Static } from 'typebox';

/** The five emotions of the avatar, in the order the page draws their bars. */
export const EMOTION_NAMES = ['joy', 'sadness', 'anger', 'fear', 'curiosity'] as const;

export type EmotionName = (typeof EMOTION_NAMES)[number];

/**
 * One number per emotion, `value(name)` called in the order of {@link EMOTION_NAMES}. Spelled out
 * as a literal rather than built with `Object.fromEntries`: every such object then has the same
 * hidden class, which the bus, the prompt and the response serializers read on every chat.
 */
export function emotionRecord(value: (name: EmotionName) => number): Record<EmotionName, number> {
  return { joy: value('joy'), sadness: value('sadness'), anger: value('anger'), fear: value('fear'), curiosity: value('curiosity') };
}

const Level = Type.Number({ minimum: 0, maximum: 1 });

/** The emotions, each in 0..1 (JSON schema of {@link Emotions}). */
export const EmotionsSchema = Type.Object({ joy: Level, sadness: Level, anger: Level, fear: Level, curiosity: Level });

/** Each value lies in 0..1; stored unrounded, rounded to 2 decimals only in responses. */
export type Emotions = Readonly<Static<typeof EmotionsSchema>>;

/** Circle: default or neutral; Triangle: high energy or active; Square: stable or grounded. */
export const AVATAR_SHAPES = ['Circle', 'Triangle', 'Square'] as const;
export const AvatarShapeSchema = Type.Enum(AVATAR_SHAPES);
export type AvatarShape = Static<typeof AvatarShapeSchema>;

export const SENTIMENT_LABELS = ['positive', 'negative', 'neutral'] as const;
export type SentimentLabel = (typeof SENTIMENT_LABELS)[number];

/** JSON schema of {@link Sentiment}. */
export const SentimentSchema = Type.Object({
  sentiment: Type.Enum(SENTIMENT_LABELS),
  /** Strength of the message's positive words, 0..1 (0: none; saturates towards 1). */
  positive: Level,
  /** Strength of the message's negative words, 0..1 (0: none; saturates towards 1). */
  negative: Level,
});

/** The sentiment of the last analysed user message, as `GET /api/avatar` reports it. */
export type Sentiment = Readonly<Static<typeof SentimentSchema>>;

const Delta = Type.Number();

/** JSON schema of {@link EmotionDeltas}: every emotion's change is there. */
export const EmotionDeltasSchema = Type.Object({ joy: Delta, sadness: Delta, anger: Delta, fear: Delta, curiosity: Delta });

/** Signed changes applied to each emotion by one drift tick. */
export type EmotionDeltas = Readonly<Static<typeof EmotionDeltasSchema>>;

// Each object schema names every emotion; this fails to compile when EMOTION_NAMES and they drift apart.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
export type SchemasNameEveryEmotion = [Assert<Same<keyof Emotions, EmotionName>>, Assert<Same<keyof EmotionDeltas, EmotionName>>];
