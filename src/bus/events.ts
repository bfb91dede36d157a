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
import { EMOTION_NAMES } from '../emotions/emotions.js';
import {
  AppraisalSchema,
  AvatarShapeSchema,
  EmotionDeltasSchema,
  EmotionStateSchema,
  EmotionsSchema,
  Iso8601Schema,
  MoodChangeSchema,
  SentimentSchema,
} from '../emotions/schemas.js';

export type { EmotionDeltas, MoodChange } from '../emotions/emotions.js';

/** An event's schema: its `type`, the ISO 8601 time `at` the bus accepted it, and its own fields. */
export function Event<T extends string, P extends TProperties>(type: T, properties: P) {
  return Type.Object({ type: Type.Literal(type), at: Iso8601Schema, ...properties });
}

/** Requests and their replies share it. */
const correlationId = Type.String();
const optionalCorrelationId = Type.Optional(correlationId);

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
  /** A streamed chat: the dialogue publishes the reply's pieces as `chat.token` while the model writes it. */
  stream: Type.Optional(Type.Boolean()),
  /** A streamed chat's turn (its `Turn-Id`): what a stop by turn names, and what the history entry keeps. */
  turn: Type.Optional(Type.String()),
  /**
   * Redoes the visitor's last exchange instead of adding one: `regenerate` a new reply to the same
   * message (the mood does not move), `edit` a new message in its place (the mood moves by it).
   */
  redo: Type.Optional(Type.Enum(['regenerate', 'edit'])),
};

export const ChatRequestedSchema = Event('chat.requested', ChatMessageFields);
export type ChatRequested = Readonly<Static<typeof ChatRequestedSchema>>;

/** A chat request the system accepted in the ready phase: what the actors work on. */
export const ChatAcceptedSchema = Event('chat.accepted', ChatMessageFields);
export type ChatAccepted = Readonly<Static<typeof ChatAcceptedSchema>>;

/** One piece of a streamed chat's reply, as the provider streamed it. Only a streamed chat has them. */
export const ChatTokenSchema = Event('chat.token', { correlationId, text: Type.String() });
export type ChatToken = Readonly<Static<typeof ChatTokenSchema>>;

/** A visitor asks to stop its streamed replies in flight (`POST /api/chat/stop`): one turn, or every one without `turn`. */
export const ChatStopRequestedSchema = Event('chat.stop.requested', {
  correlationId,
  session: SessionKeySchema,
  turn: Type.Optional(Type.String()),
});
export type ChatStopRequested = Readonly<Static<typeof ChatStopRequestedSchema>>;

/** The answer to `chat.stop.requested`: how many replies were stopped (0 when none was in flight). */
export const ChatStopAnsweredSchema = Event('chat.stop.answered', { correlationId, stopped: Type.Integer({ minimum: 0 }) });
export type ChatStopAnswered = Readonly<Static<typeof ChatStopAnsweredSchema>>;

export const ChatRepliedSchema = Event('chat.replied', {
  correlationId,
  response: Type.String(),
  avatarShape: AvatarShapeSchema,
  /** Unrounded; the HTTP layer rounds. */
  emotions: EmotionsSchema,
  /**
   * How the message read: the streamed `done` frame shows it to the visitor who wrote it (the JSON
   * body keeps the seed's fields). None for a regenerate, whose message is not read again.
   */
  appraisal: Type.Optional(AppraisalSchema),
});
export type ChatReplied = Readonly<Static<typeof ChatRepliedSchema>>;

/**
 * Why a chat request got no reply: the system's phase (`initializing`, `missing_llm_key`,
 * `system_failed`), the provider failing or timing out, the mood ledger or the conversation
 * store refusing (`unavailable`), the visitor stopping its streamed reply (`stopped`), or a
 * regenerate or edit with no exchange to redo (`nothing_to_redo`).
 */
export const ChatRejectionSchema = Type.Enum([
  'initializing',
  'missing_llm_key',
  'system_failed',
  'provider_failed',
  'provider_timeout',
  'unavailable',
  'stopped',
  'nothing_to_redo',
]);
export type ChatRejection = Static<typeof ChatRejectionSchema>;

export const ChatRejectedSchema = Event('chat.rejected', {
  correlationId,
  reason: ChatRejectionSchema,
  error: Type.String(),
});
export type ChatRejected = Readonly<Static<typeof ChatRejectedSchema>>;

/**
 * The system failed (a model failure under `ON_MODEL_FAILURE=exit`) and asks the dialogue to let
 * the chats in flight end, within `withinMs`; the ones still going then are refused.
 */
export const ChatDrainRequestedSchema = Event('chat.drain.requested', { correlationId, withinMs: Type.Integer({ minimum: 0 }) });
export type ChatDrainRequested = Readonly<Static<typeof ChatDrainRequestedSchema>>;

/** Every chat that was in flight has its answer: `ended` ran to their end, `cut` were refused at the deadline. */
export const ChatDrainedSchema = Event('chat.drained', {
  correlationId,
  ended: Type.Integer({ minimum: 0 }),
  cut: Type.Integer({ minimum: 0 }),
});
export type ChatDrained = Readonly<Static<typeof ChatDrainedSchema>>;

// ── status (HTTP boundary) ──────────────────────────────────────────────────
export const StatusRequestedSchema = Event('status.requested', { correlationId });
export type StatusRequested = Readonly<Static<typeof StatusRequestedSchema>>;

/** The fields of the emotion state (`EmotionState`), as the status report, the loaded state and each mood change carry them. */
const EmotionStateFields = EmotionStateSchema.properties;

/** Everything the read-only endpoints show, answered in every phase. */
export const StatusReportedSchema = Event('status.reported', { correlationId, phase: SystemPhaseSchema, ...EmotionStateFields });
export type StatusReported = Readonly<Static<typeof StatusReportedSchema>>;

// ── emotions, sentiment, avatar ─────────────────────────────────────────────
/** The state the run starts from: a replay begins here. */
export const EmotionsLoadedSchema = Event('emotions.loaded', {
  ...EmotionStateFields,
  /** `store`: the embedded store's lasting copy; `shared`: the snapshot and stream of replicas on Redis. */
  source: Type.Enum(['store', 'shared', 'file', 'defaults']),
});
export type EmotionsLoaded = Readonly<Static<typeof EmotionsLoadedSchema>>;

/**
 * An accepted message read by the sentiment actor: its AFINN sentiment (what `GET /api/avatar`
 * reports), its appraisal (what moves the mood), and the emotions it would make (the current mood,
 * decayed, with this appraisal) for the dialogue's prompt. A preview: nothing changes until the
 * chat's reply is there and the mood ledger delivers its change (`mood.changed`).
 */
export const SentimentAnalyzedSchema = Event('sentiment.analyzed', {
  correlationId,
  sentiment: SentimentSchema,
  /** The analyser's raw score (AFINN sum), kept for the log. */
  score: Type.Number(),
  appraisal: AppraisalSchema,
  preview: EmotionsSchema,
});
export type SentimentAnalyzed = Readonly<Static<typeof SentimentAnalyzedSchema>>;

/**
 * `APPRAISAL=model`: what the chat model's reading of a chat's new message came to, once the chat
 * settled on the reading it commits with: `used`, or why not (`failed`, `late`: the local reading
 * was used), with what the extra request took when the provider's answer said (`usage`, its
 * prompt and completion tokens). Labels and numbers only: the cost of the second reader, for the log.
 */
export const AppraisalModelReadSchema = Event('appraisal.model.read', {
  correlationId,
  /** The model asked (`APPRAISAL_MODEL`). */
  model: Type.String(),
  outcome: Type.Enum(['used', 'failed', 'late']),
  /** The model's reading (`used` only). */
  reading: Type.Optional(Type.Enum([...EMOTION_NAMES, 'neutral'])),
  usage: Type.Optional(Type.Object({ prompt: Type.Number({ minimum: 0 }), completion: Type.Number({ minimum: 0 }) })),
});
export type AppraisalModelRead = Readonly<Static<typeof AppraisalModelReadSchema>>;

/**
 * The mood changed: the mood ledger delivered one change (a committed chat, a drift tick, or a
 * shared snapshot), the mood actor folded it (`foldMoodChange`), and this is the change with the
 * whole state after it. The one event that carries a change of the mood: the front desk, the
 * chat, the dialogue, persistence, a replica's ledger and a replay read it, none recomputes it.
 * `at` is the change's time, which is also the state's `lastUpdated` (a snapshot keeps its own).
 */
export const MoodChangedSchema = Event('mood.changed', {
  change: MoodChangeSchema,
  ...EmotionStateFields,
});
export type MoodChanged = Readonly<Static<typeof MoodChangedSchema>>;

/** `GET /api/mood/why`: what moved the shared mood lately. */
export const MoodWhyRequestedSchema = Event('mood.why.requested', { correlationId });
export type MoodWhyRequested = Readonly<Static<typeof MoodWhyRequestedSchema>>;

/** One change as the explanation shows it (`MoodStep`): when, what kind, by how much, and a chat's strongest emotion. */
export const MoodStepSchema = Type.Object({
  at: Iso8601Schema,
  kind: Type.Enum(['chat', 'drift', 'snapshot']),
  delta: EmotionDeltasSchema,
  strongest: Type.Optional(Type.Enum(EMOTION_NAMES)),
  source: Type.Optional(Type.Enum(['local', 'model'])),
});

/** One emotion's sum of deltas over the changes, by kind, rounded to 4 decimals (`moodTotals`). */
const KindTotalsSchema = Type.Object({ drift: Type.Number(), messages: Type.Number() });

/** The latest changes (at most 50) with the emotions before the first and after the last, and each emotion's totals by kind: numbers only, no message text. */
export const MoodWhyReportedSchema = Event('mood.why.reported', {
  correlationId,
  from: EmotionsSchema,
  changes: Type.Array(MoodStepSchema),
  emotions: EmotionsSchema,
  totals: Type.Object({
    joy: KindTotalsSchema,
    sadness: KindTotalsSchema,
    anger: KindTotalsSchema,
    fear: KindTotalsSchema,
    curiosity: KindTotalsSchema,
  }),
});
export type MoodWhyReported = Readonly<Static<typeof MoodWhyReportedSchema>>;

// ── dialogue and persistence ────────────────────────────────────────────────
/** A chat's model call failed (after the retries that fit its deadline): the system machine hears it. */
export const DialogueFailedSchema = Event('dialogue.failed', {
  correlationId,
  reason: Type.String(),
  /** The provider call ran out of time (`LLM_TIMEOUT_MS`), rather than failing. */
  timedOut: Type.Boolean(),
});
export type DialogueFailed = Readonly<Static<typeof DialogueFailedSchema>>;

// ── history (HTTP boundary) ─────────────────────────────────────────────────
/** One remembered turn as the visitor sees it: who said it, what, and when. */
export const HistoryMessageSchema = Type.Object({
  role: Type.Enum(['user', 'assistant']),
  content: Type.String(),
  at: Iso8601Schema,
  /** A message's: how it read. */
  appraisal: Type.Optional(AppraisalSchema),
  /** The streamed turn it came from (its `Turn-Id`). */
  turn: Type.Optional(Type.String()),
  /** A reply the visitor stopped, kept as far as it came. */
  stopped: Type.Optional(Type.Boolean()),
  /** Earlier versions, replaced by a regenerate or an edit, oldest first. */
  alternatives: Type.Optional(
    Type.Array(Type.Object({ content: Type.String(), at: Iso8601Schema, stopped: Type.Optional(Type.Boolean()) })),
  ),
});
export type HistoryMessage = Static<typeof HistoryMessageSchema>;

/** `GET /api/history` (`forget` false) or `DELETE /api/history` (`forget` true) for one visitor. */
export const HistoryRequestedSchema = Event('history.requested', {
  correlationId,
  session: SessionKeySchema,
  forget: Type.Boolean(),
});
export type HistoryRequested = Readonly<Static<typeof HistoryRequestedSchema>>;

/** The visitor's conversation, oldest first (empty once forgotten), or why the store could not answer. */
export const HistoryReportedSchema = Event('history.reported', {
  correlationId,
  messages: Type.Array(HistoryMessageSchema),
  error: Type.Optional(Type.String()),
});
export type HistoryReported = Readonly<Static<typeof HistoryReportedSchema>>;

/**
 * `POST /api/history/import` for one visitor: the messages a file brought (already read and checked),
 * appended to the conversation or (`replace`) in its place. The mood is not asked: an import never moves it.
 */
export const HistoryImportRequestedSchema = Event('history.import.requested', {
  correlationId,
  session: SessionKeySchema,
  messages: Type.Array(HistoryMessageSchema),
  replace: Type.Boolean(),
});
export type HistoryImportRequested = Readonly<Static<typeof HistoryImportRequestedSchema>>;

/** The import done: how many exchanges it remembered and how many messages had no place in one; or why the store could not. */
export const HistoryImportedSchema = Event('history.imported', {
  correlationId,
  exchanges: Type.Integer({ minimum: 0 }),
  skipped: Type.Integer({ minimum: 0 }),
  error: Type.Optional(Type.String()),
});
export type HistoryImported = Readonly<Static<typeof HistoryImportedSchema>>;

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
  'chat.token': ChatTokenSchema,
  'chat.stop.requested': ChatStopRequestedSchema,
  'chat.stop.answered': ChatStopAnsweredSchema,
  'chat.drain.requested': ChatDrainRequestedSchema,
  'chat.drained': ChatDrainedSchema,
  'status.requested': StatusRequestedSchema,
  'status.reported': StatusReportedSchema,
  'emotions.loaded': EmotionsLoadedSchema,
  'sentiment.analyzed': SentimentAnalyzedSchema,
  'appraisal.model.read': AppraisalModelReadSchema,
  'mood.changed': MoodChangedSchema,
  'mood.why.requested': MoodWhyRequestedSchema,
  'mood.why.reported': MoodWhyReportedSchema,
  'dialogue.failed': DialogueFailedSchema,
  'history.requested': HistoryRequestedSchema,
  'history.reported': HistoryReportedSchema,
  'history.import.requested': HistoryImportRequestedSchema,
  'history.imported': HistoryImportedSchema,
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
