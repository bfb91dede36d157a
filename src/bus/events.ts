/**
 * The event catalogue: every message that crosses the bus. Each event is a
 * plain, JSON-serialisable object, discriminated on `type` and stamped with an
 * ISO 8601 `at`. Requests and their replies share a `correlationId`.
 *
 * Each event is declared once, as a typebox schema; its TypeScript type is
 * derived from it. The bus trusts its publishers (no validation on publish);
 * the schemas check what comes from outside, such as a replayed event log.
 *
 * The boundary with the HTTP layer is `chat.*` and `status.*`; the rest is
 * how the actors talk to one another, and what a replay folds over.
 */
import { Type, type Static, type TObject, type TProperties } from 'typebox';
import { AvatarShapeSchema, EmotionDeltasSchema, EmotionsSchema, SentimentSchema } from '../emotions/schemas.js';

export type { EmotionDeltas } from '../emotions/emotions.js';

/** An event's schema: its `type`, the ISO 8601 time `at` the bus accepted it, and its own fields. */
function Event<T extends string, P extends TProperties>(type: T, properties: P) {
  return Type.Object({ type: Type.Literal(type), at: Type.String({ format: 'date-time' }), ...properties });
}

/** Requests and their replies share it. */
const correlationId = Type.String();
const optionalCorrelationId = Type.Optional(correlationId);
const Iso8601 = Type.String({ format: 'date-time' });

/** Phases of the system machine, as clients see them (`failed` ends the process). */
export const SystemPhaseSchema = Type.Enum(['initializing', 'ready', 'keyMissing', 'failed']);
export type SystemPhase = Static<typeof SystemPhaseSchema>;

/** The parts the system machine starts; the first four are the critical components of docs/specification.md#states. */
export const ComponentNameSchema = Type.Enum([
  'memoryStore',
  'sentimentAnalyzer',
  'primaryProvider',
  'secondaryProvider',
  'persistence',
  'chat',
  'dialogue',
  'avatar',
  'drift',
]);
export type ComponentName = Static<typeof ComponentNameSchema>;

// ── system ──────────────────────────────────────────────────────────────────
export const SystemPhaseChangedSchema = Event('system.phase.changed', {
  phase: SystemPhaseSchema,
  /** Set when the phase is `failed`: the component that failed and why. */
  component: Type.Optional(ComponentNameSchema),
  reason: Type.Optional(Type.String()),
});
export type SystemPhaseChanged = Readonly<Static<typeof SystemPhaseChangedSchema>>;

export const ComponentReadySchema = Event('system.component.ready', {
  component: ComponentNameSchema,
  detail: Type.Optional(Type.String()),
});
export type ComponentReady = Readonly<Static<typeof ComponentReadySchema>>;

export const ComponentFailedSchema = Event('system.component.failed', {
  component: ComponentNameSchema,
  reason: Type.String(),
});
export type ComponentFailed = Readonly<Static<typeof ComponentFailedSchema>>;

// ── chat (HTTP boundary) ────────────────────────────────────────────────────
/**
 * A visitor's session as the bus knows it: the SHA-256 (hex) of the session cookie's id, never the
 * id itself, so that neither the event log nor a log line holds what a cookie could be forged from.
 */
export const SessionKeySchema = Type.String();
export type SessionKey = Static<typeof SessionKeySchema>;

/** A visitor's message on its way in: requested by the HTTP layer, then accepted by the system. */
const ChatMessageFields = {
  correlationId,
  message: Type.String(),
  /** Whose conversation the message belongs to. */
  session: SessionKeySchema,
};

export const ChatRequestedSchema = Event('chat.requested', ChatMessageFields);
export type ChatRequested = Readonly<Static<typeof ChatRequestedSchema>>;

/** A chat request the system accepted in the ready phase: what the actors work on. */
export const ChatAcceptedSchema = Event('chat.accepted', ChatMessageFields);
export type ChatAccepted = Readonly<Static<typeof ChatAcceptedSchema>>;

/**
 * A chat whose reply is there took effect: the mood ledger delivered its change (decay, then this
 * sentiment). Published by the emotions actor as the ledger delivers it; a replay folds it.
 */
export const ChatCommittedSchema = Event('chat.committed', {
  correlationId,
  sentiment: SentimentSchema,
});
export type ChatCommitted = Readonly<Static<typeof ChatCommittedSchema>>;

export const ChatRepliedSchema = Event('chat.replied', {
  correlationId,
  response: Type.String(),
  avatarShape: AvatarShapeSchema,
  /** Unrounded; the HTTP layer rounds. */
  emotions: EmotionsSchema,
});
export type ChatReplied = Readonly<Static<typeof ChatRepliedSchema>>;

/**
 * Why a chat request got no reply: the system's phase (`initializing`, `missing_llm_key`,
 * `system_failed`), the provider failing or timing out, or the mood ledger or the conversation
 * store refusing (`unavailable`).
 */
export const ChatRejectionSchema = Type.Enum([
  'initializing',
  'missing_llm_key',
  'system_failed',
  'provider_failed',
  'provider_timeout',
  'unavailable',
]);
export type ChatRejection = Static<typeof ChatRejectionSchema>;

export const ChatRejectedSchema = Event('chat.rejected', {
  correlationId,
  reason: ChatRejectionSchema,
  error: Type.String(),
});
export type ChatRejected = Readonly<Static<typeof ChatRejectedSchema>>;

// ── status (HTTP boundary) ──────────────────────────────────────────────────
export const StatusRequestedSchema = Event('status.requested', { correlationId });
export type StatusRequested = Readonly<Static<typeof StatusRequestedSchema>>;

/** The fields of the emotion state (`EmotionState`), as the status report and the loaded state carry them. */
const EmotionStateFields = {
  emotions: EmotionsSchema,
  avatarShape: AvatarShapeSchema,
  sentiment: SentimentSchema,
  /** ISO 8601 time the avatar state last changed. */
  lastUpdated: Iso8601,
};

/** Everything the read-only endpoints show, answered in every phase. */
export const StatusReportedSchema = Event('status.reported', { correlationId, phase: SystemPhaseSchema, ...EmotionStateFields });
export type StatusReported = Readonly<Static<typeof StatusReportedSchema>>;

// ── emotions, sentiment, avatar ─────────────────────────────────────────────
/** The state the run starts from: a replay begins here. */
export const EmotionsLoadedSchema = Event('emotions.loaded', {
  ...EmotionStateFields,
  /** `shared`: the snapshot and stream of replicas on Redis. */
  source: Type.Enum(['file', 'defaults', 'shared']),
});
export type EmotionsLoaded = Readonly<Static<typeof EmotionsLoadedSchema>>;

/** An accepted message's sentiment. It changes nothing until its chat is committed (`chat.committed`). */
export const SentimentAnalyzedSchema = Event('sentiment.analyzed', {
  correlationId,
  sentiment: SentimentSchema,
  /** The analyser's raw score (AFINN sum), kept for the log. */
  score: Type.Number(),
});
export type SentimentAnalyzed = Readonly<Static<typeof SentimentAnalyzedSchema>>;

/**
 * The emotions as an accepted message would make them (the current state, decayed, with its
 * sentiment), for the dialogue's prompt. A preview: nothing changes until the chat is committed.
 */
export const EmotionsPreviewedSchema = Event('emotions.previewed', {
  correlationId,
  emotions: EmotionsSchema,
});
export type EmotionsPreviewed = Readonly<Static<typeof EmotionsPreviewedSchema>>;

/**
 * One random drift tick took effect: the mood ledger delivered it. Carries its deltas so that a
 * replay applies the same change; `at` is the tick's time.
 */
export const EmotionsDriftedSchema = Event('emotions.drifted', { deltas: EmotionDeltasSchema });
export type EmotionsDrifted = Readonly<Static<typeof EmotionsDriftedSchema>>;

/** Stamped with the `at` of the event that caused it, so a replay derives the same times. */
export const EmotionsChangedSchema = Event('emotions.changed', {
  emotions: EmotionsSchema,
  cause: Type.Enum(['loaded', 'chat', 'drift']),
  correlationId: optionalCorrelationId,
});
export type EmotionsChanged = Readonly<Static<typeof EmotionsChangedSchema>>;

export const AvatarChangedSchema = Event('avatar.changed', {
  avatarShape: AvatarShapeSchema,
  sentiment: SentimentSchema,
  lastUpdated: Iso8601,
  /** The chat request whose message caused the change, if any. */
  correlationId: optionalCorrelationId,
});
export type AvatarChanged = Readonly<Static<typeof AvatarChangedSchema>>;

// ── dialogue and persistence ────────────────────────────────────────────────
export const DialogueRepliedSchema = Event('dialogue.replied', {
  correlationId,
  response: Type.String(),
});
export type DialogueReplied = Readonly<Static<typeof DialogueRepliedSchema>>;

export const DialogueFailedSchema = Event('dialogue.failed', {
  correlationId,
  reason: Type.String(),
  /** The provider call ran out of time (`LLM_TIMEOUT_MS`), rather than failing. */
  timedOut: Type.Boolean(),
});
export type DialogueFailed = Readonly<Static<typeof DialogueFailedSchema>>;

/**
 * The visitor's conversation could not be read (a shared store is away), so the model was not
 * called: the chat is refused as unavailable, which is not a model failure and ends nothing.
 */
export const DialogueUnavailableSchema = Event('dialogue.unavailable', {
  correlationId,
  reason: Type.String(),
});
export type DialogueUnavailable = Readonly<Static<typeof DialogueUnavailableSchema>>;

/** Asks the persistence actor to write the state now (shutdown, fatal errors). */
export const PersistenceFlushRequestedSchema = Event('persistence.flush.requested', { correlationId });
export type PersistenceFlushRequested = Readonly<Static<typeof PersistenceFlushRequestedSchema>>;

/** `correlationId` is set when the write answers a flush request. */
export const PersistenceSavedSchema = Event('persistence.saved', {
  file: Type.String(),
  correlationId: optionalCorrelationId,
});
export type PersistenceSaved = Readonly<Static<typeof PersistenceSavedSchema>>;

export const PersistenceFailedSchema = Event('persistence.failed', {
  file: Type.String(),
  reason: Type.String(),
  correlationId: optionalCorrelationId,
});
export type PersistenceFailed = Readonly<Static<typeof PersistenceFailedSchema>>;

/** Every event's schema by its type: the catalogue itself. */
export const EVENT_SCHEMAS = {
  'system.phase.changed': SystemPhaseChangedSchema,
  'system.component.ready': ComponentReadySchema,
  'system.component.failed': ComponentFailedSchema,
  'chat.requested': ChatRequestedSchema,
  'chat.accepted': ChatAcceptedSchema,
  'chat.replied': ChatRepliedSchema,
  'chat.rejected': ChatRejectedSchema,
  'chat.committed': ChatCommittedSchema,
  'status.requested': StatusRequestedSchema,
  'status.reported': StatusReportedSchema,
  'emotions.loaded': EmotionsLoadedSchema,
  'sentiment.analyzed': SentimentAnalyzedSchema,
  'emotions.previewed': EmotionsPreviewedSchema,
  'emotions.drifted': EmotionsDriftedSchema,
  'emotions.changed': EmotionsChangedSchema,
  'avatar.changed': AvatarChangedSchema,
  'dialogue.replied': DialogueRepliedSchema,
  'dialogue.failed': DialogueFailedSchema,
  'dialogue.unavailable': DialogueUnavailableSchema,
  'persistence.flush.requested': PersistenceFlushRequestedSchema,
  'persistence.saved': PersistenceSavedSchema,
  'persistence.failed': PersistenceFailedSchema,
} as const satisfies Record<string, TObject>;

type Schemas = typeof EVENT_SCHEMAS;
export type EventType = keyof Schemas;
export type BusEvent = { [T in EventType]: Readonly<Static<Schemas[T]>> }[EventType];
export type EventOf<T extends EventType> = Extract<BusEvent, { readonly type: T }>;

// Each schema sits under its own type's key; a slip of the pen fails to compile here.
type Misfiled = { [T in EventType]: Static<Schemas[T]>['type'] extends T ? never : T }[EventType];
type Assert<T extends true> = T;
export type EveryEventUnderItsType = Assert<[Misfiled] extends [never] ? true : false>;

/** An event as a publisher writes it: the bus stamps `at` when it is absent. */
export type EventInput = BusEvent extends infer E ? (E extends BusEvent ? Omit<E, 'at'> & { readonly at?: string } : never) : never;

export const EVENT_TYPES = Object.keys(EVENT_SCHEMAS) as readonly EventType[];

export function isEventType(value: unknown): value is EventType {
  return typeof value === 'string' && Object.hasOwn(EVENT_SCHEMAS, value);
}
