/** The five emotions of the avatar, in the order the page draws their bars. */
export const EMOTION_NAMES = ['joy', 'sadness', 'anger', 'fear', 'curiosity'] as const;

export type EmotionName = (typeof EMOTION_NAMES)[number];

/** Each value lies in 0..1; stored unrounded, rounded to 2 decimals only in responses. */
export type Emotions = Readonly<Record<EmotionName, number>>;

/** Circle: default or neutral; Triangle: high energy or active; Square: stable or grounded. */
export const AVATAR_SHAPES = ['Circle', 'Triangle', 'Square'] as const;
export type AvatarShape = (typeof AVATAR_SHAPES)[number];

export const SENTIMENT_LABELS = ['positive', 'negative', 'neutral'] as const;
export type SentimentLabel = (typeof SENTIMENT_LABELS)[number];

/** The sentiment of the last analysed user message, as `GET /api/avatar` reports it. */
export interface Sentiment {
  readonly sentiment: SentimentLabel;
  /** Strength of the message's positive words, 0..1 (0: none; saturates towards 1). */
  readonly positive: number;
  /** Strength of the message's negative words, 0..1 (0: none; saturates towards 1). */
  readonly negative: number;
}

/** Signed changes applied to each emotion by one drift tick. */
export type EmotionDeltas = Readonly<Record<EmotionName, number>>;
