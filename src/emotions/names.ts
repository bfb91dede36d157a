/**
 * The names the emotion types (emotions.ts) and their schemas (schemas.ts) are both built from. They
 * import this file and it imports neither, so the two never import each other at runtime or for types.
 */

/** The five emotions of the avatar, in the order the page draws their bars. */
export const EMOTION_NAMES = ['joy', 'sadness', 'anger', 'fear', 'curiosity'] as const;

export type EmotionName = (typeof EMOTION_NAMES)[number];

/** Circle: default or neutral; Triangle: high energy or active; Square: stable or grounded. */
export const AVATAR_SHAPES = ['Circle', 'Triangle', 'Square'] as const;

export const SENTIMENT_LABELS = ['positive', 'negative', 'neutral'] as const;
export type SentimentLabel = (typeof SENTIMENT_LABELS)[number];
