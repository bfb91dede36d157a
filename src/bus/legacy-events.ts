/**
 * Events that older logs hold, kept so those logs still read and replay
 * to the same state. Nothing publishes them any more: they are not in the catalogue the bus
 * carries, only in what the event-log reader accepts. A change of the mood was then spread over
 * `chat.committed` or `emotions.drifted` (what a replay folds), `emotions.changed` and
 * `avatar.changed` (the state after it), and a chat's preview was its own `emotions.previewed`.
 */
import { Type, type Static, type TObject } from 'typebox';
import { AvatarShapeSchema, EmotionDeltasSchema, EmotionsSchema, Iso8601Schema, SentimentSchema } from '../emotions/schemas.js';
import { Event } from './events.js';

const correlationId = Type.String();
const optionalCorrelationId = Type.Optional(correlationId);

/** A chat took effect: decay, then this sentiment. */
export const ChatCommittedSchema = Event('chat.committed', { correlationId, sentiment: SentimentSchema });

/** One drift tick took effect, with its deltas. */
export const EmotionsDriftedSchema = Event('emotions.drifted', { deltas: EmotionDeltasSchema });

/** The emotions after a change (folded from the two above, so a replay ignores it). */
export const EmotionsChangedSchema = Event('emotions.changed', {
  emotions: EmotionsSchema,
  cause: Type.Enum(['loaded', 'chat', 'drift']),
  correlationId: optionalCorrelationId,
});

/** The avatar after a change. */
export const AvatarChangedSchema = Event('avatar.changed', {
  avatarShape: AvatarShapeSchema,
  sentiment: SentimentSchema,
  lastUpdated: Iso8601Schema,
  correlationId: optionalCorrelationId,
});

/** A chat's preview, before `sentiment.analyzed` carried it. */
export const EmotionsPreviewedSchema = Event('emotions.previewed', { correlationId, emotions: EmotionsSchema });

/** `sentiment.analyzed` before it carried the preview. */
export const SentimentAnalyzedWithoutPreviewSchema = Event('sentiment.analyzed', {
  correlationId,
  sentiment: SentimentSchema,
  score: Type.Number(),
});

/** `chat.replied` before it carried the message's appraisal. */
export const ChatRepliedWithoutAppraisalSchema = Event('chat.replied', {
  correlationId,
  response: Type.String(),
  avatarShape: AvatarShapeSchema,
  emotions: EmotionsSchema,
});

/**
 * What the dialogue told the chat actor before one actor owned each chat: the model's reply, a
 * conversation that could not be read, a stopped reply, nothing to redo. Inside the dialogue now.
 */
export const DialogueRepliedSchema = Event('dialogue.replied', { correlationId, response: Type.String() });
export const DialogueUnavailableSchema = Event('dialogue.unavailable', { correlationId, reason: Type.String() });
export const DialogueStoppedSchema = Event('dialogue.stopped', { correlationId });
export const DialogueNothingToRedoSchema = Event('dialogue.nothing.to.redo', { correlationId });

/** The old events by type; `sentiment.analyzed` and `chat.replied` are also current types, read in either shape. */
export const LEGACY_EVENT_SCHEMAS = {
  'chat.committed': ChatCommittedSchema,
  'emotions.drifted': EmotionsDriftedSchema,
  'emotions.changed': EmotionsChangedSchema,
  'avatar.changed': AvatarChangedSchema,
  'emotions.previewed': EmotionsPreviewedSchema,
  'sentiment.analyzed': SentimentAnalyzedWithoutPreviewSchema,
  'chat.replied': ChatRepliedWithoutAppraisalSchema,
  'dialogue.replied': DialogueRepliedSchema,
  'dialogue.unavailable': DialogueUnavailableSchema,
  'dialogue.stopped': DialogueStoppedSchema,
  'dialogue.nothing.to.redo': DialogueNothingToRedoSchema,
} as const satisfies Record<string, TObject>;

type LegacySchemas = typeof LEGACY_EVENT_SCHEMAS;
export type LegacyEventType = keyof LegacySchemas;
export type LegacyEvent = { [T in LegacyEventType]: Readonly<Static<LegacySchemas[T]>> }[LegacyEventType];

export function isLegacyEventType(value: unknown): value is LegacyEventType {
  return typeof value === 'string' && Object.hasOwn(LEGACY_EVENT_SCHEMAS, value);
}
