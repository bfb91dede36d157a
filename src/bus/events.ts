/**
 * The event catalogue: every message that crosses the bus. Each event is a
 * plain, JSON-serialisable object, discriminated on `type` and stamped with an
 * ISO 8601 `at`. Requests and their replies share a `correlationId`.
 *
 * The boundary with the HTTP layer is `chat.*` and `status.*`; the rest is
 * how the actors talk to one another, and what a replay folds over.
 */
import type { AvatarShape, EmotionDeltas, Emotions, Sentiment } from '../emotions/emotions.js';

export type { EmotionDeltas } from '../emotions/emotions.js';

interface Stamped<T extends string> {
  readonly type: T;
  /** ISO 8601 time the bus accepted the event. */
  readonly at: string;
}

interface Correlated {
  readonly correlationId: string;
}

/** Phases of the system machine, as clients see them (`failed` ends the process). */
export type SystemPhase = 'initializing' | 'ready' | 'keyMissing' | 'failed';

/** The parts the system machine starts; the first four are seed 000's critical components. */
export type ComponentName =
  | 'memoryStore'
  | 'sentimentAnalyzer'
  | 'primaryProvider'
  | 'secondaryProvider'
  | 'persistence'
  | 'chat'
  | 'dialogue'
  | 'avatar'
  | 'drift';

// ── system ──────────────────────────────────────────────────────────────────
export interface SystemPhaseChanged extends Stamped<'system.phase.changed'> {
  readonly phase: SystemPhase;
  /** Set when the phase is `failed`: the component that failed and why. */
  readonly component?: ComponentName;
  readonly reason?: string;
}

export interface ComponentReady extends Stamped<'system.component.ready'> {
  readonly component: ComponentName;
  readonly detail?: string;
}

export interface ComponentFailed extends Stamped<'system.component.failed'> {
  readonly component: ComponentName;
  readonly reason: string;
}

// ── chat (HTTP boundary) ────────────────────────────────────────────────────
/**
 * A visitor's session as the bus knows it: the SHA-256 (hex) of the session cookie's id, never the
 * id itself, so that neither the event log nor a log line holds what a cookie could be forged from.
 */
export type SessionKey = string;

export interface ChatRequested extends Stamped<'chat.requested'>, Correlated {
  readonly message: string;
  /** Whose conversation the message belongs to. */
  readonly session: SessionKey;
}

/** A chat request the system accepted in the ready phase: what the actors work on. */
export interface ChatAccepted extends Stamped<'chat.accepted'>, Correlated {
  readonly message: string;
  readonly session: SessionKey;
}

/**
 * A chat whose reply is there took effect: the mood ledger delivered its change (decay, then this
 * sentiment). Published by the emotions actor as the ledger delivers it; a replay folds it.
 */
export interface ChatCommitted extends Stamped<'chat.committed'>, Correlated {
  readonly sentiment: Sentiment;
}

export interface ChatReplied extends Stamped<'chat.replied'>, Correlated {
  readonly response: string;
  readonly avatarShape: AvatarShape;
  /** Unrounded; the HTTP layer rounds. */
  readonly emotions: Emotions;
}

/**
 * Why a chat request got no reply: the system's phase, the provider failing or timing out, or the
 * mood ledger refusing the change (`unavailable`).
 */
export type ChatRejection = 'initializing' | 'missing_llm_key' | 'provider_failed' | 'provider_timeout' | 'unavailable';

export interface ChatRejected extends Stamped<'chat.rejected'>, Correlated {
  readonly reason: ChatRejection;
  readonly error: string;
}

// ── status (HTTP boundary) ──────────────────────────────────────────────────
export interface StatusRequested extends Stamped<'status.requested'>, Correlated {}

/** Everything the read-only endpoints show, answered in every phase. */
export interface StatusReported extends Stamped<'status.reported'>, Correlated {
  readonly phase: SystemPhase;
  readonly emotions: Emotions;
  readonly avatarShape: AvatarShape;
  readonly sentiment: Sentiment;
  /** ISO 8601 time the avatar state last changed. */
  readonly lastUpdated: string;
}

// ── emotions, sentiment, avatar ─────────────────────────────────────────────
/** The state the run starts from: a replay begins here. */
export interface EmotionsLoaded extends Stamped<'emotions.loaded'> {
  readonly emotions: Emotions;
  readonly avatarShape: AvatarShape;
  readonly sentiment: Sentiment;
  readonly lastUpdated: string;
  /** `shared`: the snapshot and stream of replicas on Redis. */
  readonly source: 'file' | 'defaults' | 'shared';
}

/** An accepted message's sentiment. It changes nothing until its chat is committed (`chat.committed`). */
export interface SentimentAnalyzed extends Stamped<'sentiment.analyzed'>, Correlated {
  readonly sentiment: Sentiment;
  /** The analyser's raw score (AFINN sum), kept for the log. */
  readonly score: number;
}

/**
 * The emotions as an accepted message would make them (the current state, decayed, with its
 * sentiment), for the dialogue's prompt. A preview: nothing changes until the chat is committed.
 */
export interface EmotionsPreviewed extends Stamped<'emotions.previewed'>, Correlated {
  readonly emotions: Emotions;
}

/**
 * One random drift tick took effect: the mood ledger delivered it. Carries its deltas so that a
 * replay applies the same change; `at` is the tick's time.
 */
export interface EmotionsDrifted extends Stamped<'emotions.drifted'> {
  readonly deltas: EmotionDeltas;
}

/** Stamped with the `at` of the event that caused it, so a replay derives the same times. */
export interface EmotionsChanged extends Stamped<'emotions.changed'> {
  readonly emotions: Emotions;
  readonly cause: 'loaded' | 'chat' | 'drift';
  readonly correlationId?: string;
}

export interface AvatarChanged extends Stamped<'avatar.changed'> {
  readonly avatarShape: AvatarShape;
  readonly sentiment: Sentiment;
  readonly lastUpdated: string;
  /** The chat request whose message caused the change, if any. */
  readonly correlationId?: string;
}

// ── dialogue and persistence ────────────────────────────────────────────────
export interface DialogueReplied extends Stamped<'dialogue.replied'>, Correlated {
  readonly response: string;
}

export interface DialogueFailed extends Stamped<'dialogue.failed'>, Correlated {
  readonly reason: string;
  /** The provider call ran out of time (`LLM_TIMEOUT_MS`), rather than failing. */
  readonly timedOut: boolean;
}

/**
 * The visitor's conversation could not be read (a shared store is away), so the model was not
 * called: the chat is refused as unavailable, which is not a model failure and ends nothing.
 */
export interface DialogueUnavailable extends Stamped<'dialogue.unavailable'>, Correlated {
  readonly reason: string;
}

/** Asks the persistence actor to write the state now (shutdown, fatal errors). */
export interface PersistenceFlushRequested extends Stamped<'persistence.flush.requested'>, Correlated {}

/** `correlationId` is set when the write answers a flush request. */
export interface PersistenceSaved extends Stamped<'persistence.saved'> {
  readonly file: string;
  readonly correlationId?: string;
}

export interface PersistenceFailed extends Stamped<'persistence.failed'> {
  readonly file: string;
  readonly reason: string;
  readonly correlationId?: string;
}

export type BusEvent =
  | SystemPhaseChanged
  | ComponentReady
  | ComponentFailed
  | ChatRequested
  | ChatAccepted
  | ChatReplied
  | ChatRejected
  | ChatCommitted
  | StatusRequested
  | StatusReported
  | EmotionsLoaded
  | SentimentAnalyzed
  | EmotionsPreviewed
  | EmotionsDrifted
  | EmotionsChanged
  | AvatarChanged
  | DialogueReplied
  | DialogueFailed
  | DialogueUnavailable
  | PersistenceFlushRequested
  | PersistenceSaved
  | PersistenceFailed;

export type EventType = BusEvent['type'];
export type EventOf<T extends EventType> = Extract<BusEvent, { readonly type: T }>;

/** An event as a publisher writes it: the bus stamps `at` when it is absent. */
export type EventInput = BusEvent extends infer E
  ? E extends BusEvent
    ? Omit<E, 'at'> & { readonly at?: string }
    : never
  : never;

/** Every type in the catalogue; the `Record` makes the compiler keep it complete. */
const EVENT_TYPE_TABLE: Record<EventType, true> = {
  'system.phase.changed': true,
  'system.component.ready': true,
  'system.component.failed': true,
  'chat.requested': true,
  'chat.accepted': true,
  'chat.replied': true,
  'chat.rejected': true,
  'chat.committed': true,
  'status.requested': true,
  'status.reported': true,
  'emotions.loaded': true,
  'sentiment.analyzed': true,
  'emotions.previewed': true,
  'emotions.drifted': true,
  'emotions.changed': true,
  'avatar.changed': true,
  'dialogue.replied': true,
  'dialogue.unavailable': true,
  'dialogue.failed': true,
  'persistence.flush.requested': true,
  'persistence.saved': true,
  'persistence.failed': true,
};

export const EVENT_TYPES = Object.keys(EVENT_TYPE_TABLE) as readonly EventType[];

export function isEventType(value: unknown): value is EventType {
  return typeof value === 'string' && Object.hasOwn(EVENT_TYPE_TABLE, value);
}
