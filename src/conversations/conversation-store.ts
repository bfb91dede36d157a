import type { Appraisal } from '../emotions/emotions.js';

/** One turn of a conversation as the chat-completions API takes it. */
export interface ConversationTurn {
  readonly role: 'user' | 'assistant';
  readonly content: string;
}

/** An earlier version of a turn, replaced by a regenerate or an edit: shown to the visitor, never to the model. */
export interface TurnVersion {
  readonly content: string;
  readonly at: string;
  readonly stopped?: boolean;
}

/**
 * A remembered turn as the visitor sees it (`GET /api/history`): with the ISO 8601 time it was said,
 * the streamed turn it came from, whether the reply was stopped, and its earlier versions.
 */
export interface TimedTurn extends ConversationTurn {
  readonly at: string;
  /** A message's: how it read (the visitor who wrote it sees it; the model never gets it). */
  readonly appraisal?: Appraisal;
  readonly turn?: string;
  readonly stopped?: boolean;
  readonly alternatives?: TurnVersion[];
}

/** How an exchange is remembered beyond its text: its turn, a stopped reply, or in place of the last exchange. */
export interface ExchangeMarks {
  readonly turn?: string;
  /** The visitor stopped the reply: it is kept as far as it came, and committed nothing to the mood. */
  readonly stopped?: boolean;
  /** A regenerate or an edit: the last exchange is replaced, its versions kept in `alternatives`. */
  readonly replace?: boolean;
  /** How the message read, kept on its turn (a regenerate's message is not read again: it keeps the first reading). */
  readonly appraisal?: Appraisal;
}

/** Earlier versions kept per turn: the oldest go first beyond it. */
export const MAX_ALTERNATIVES = 10;

/** When each side of an exchange was said: the message when it was accepted, the reply when it committed. */
export interface ExchangeTimes {
  readonly message: string;
  readonly reply: string;
}

/** How many exchanges (a message and its reply) a visitor's conversation keeps. */
export const DEFAULT_MEMORY_EXCHANGES = 10;

/** The time a store gives a turn remembered without one (an older version's, or a caller's that gave none). */
export const UNKNOWN_TIME = new Date(0).toISOString();

/** The exchange's two turns, timed, as every store keeps them. */
export function exchangeTurns(message: string, reply: string, times?: ExchangeTimes, marks: ExchangeMarks = {}): [TimedTurn, TimedTurn] {
  const turn = marks.turn === undefined ? {} : { turn: marks.turn };
  return [
    {
      role: 'user',
      content: message,
      at: times?.message ?? UNKNOWN_TIME,
      ...(marks.appraisal ? { appraisal: marks.appraisal } : {}),
      ...turn,
    },
    { role: 'assistant', content: reply, at: times?.reply ?? UNKNOWN_TIME, ...turn, ...(marks.stopped ? { stopped: true } : {}) },
  ];
}

/** `turn`'s versions with `earlier` added when it is another version (the newest last, at most MAX_ALTERNATIVES). */
function withVersion(earlier: TimedTurn, next: TimedTurn): TimedTurn {
  const alternatives = [...(earlier.alternatives ?? [])];
  if (earlier.content !== next.content || earlier.at !== next.at || earlier.stopped !== next.stopped) {
    alternatives.push({ content: earlier.content, at: earlier.at, ...(earlier.stopped ? { stopped: true } : {}) });
  }
  const kept = alternatives.slice(-MAX_ALTERNATIVES);
  return kept.length === 0 ? next : { ...next, alternatives: kept };
}

/**
 * The conversation with one more exchange, or (`marks.replace`, a regenerate or an edit) with the
 * exchange in place of the last one, whose message and reply become earlier versions of the new ones.
 * A replace with no last exchange adds it.
 */
export function addExchange(
  turns: readonly TimedTurn[],
  exchange: { readonly message: string; readonly reply: string; readonly times?: ExchangeTimes },
  marks: ExchangeMarks = {},
): readonly TimedTurn[] {
  const [user, assistant] = exchangeTurns(exchange.message, exchange.reply, exchange.times, marks);
  const last = turns.slice(-2);
  if (!marks.replace || last[0]?.role !== 'user' || last[1]?.role !== 'assistant') return [...turns, user, assistant];
  // A regenerate's message, not read again, keeps how it read when it was sent.
  const message =
    user.appraisal === undefined && last[0].appraisal !== undefined && last[0].content === user.content
      ? { ...user, appraisal: last[0].appraisal }
      : user;
  return [...turns.slice(0, -2), withVersion(last[0], message), withVersion(last[1], assistant)];
}

/** The last exchange's message and its time, which a regenerate answers again; none in an empty conversation. */
export function lastExchange(turns: readonly TimedTurn[]): { readonly message: string; readonly at: string } | undefined {
  const [user, assistant] = turns.slice(-2);
  return user?.role === 'user' && assistant?.role === 'assistant' ? { message: user.content, at: user.at } : undefined;
}

/**
 * The turns as the model gets them: the times and versions stay here (a provider may refuse a field
 * it does not know); a reply stopped before its first piece leaves no empty assistant turn.
 */
export function untimed(turns: readonly TimedTurn[]): ConversationTurn[] {
  return turns.flatMap(({ role, content }) => (role === 'assistant' && content === '' ? [] : [{ role, content }]));
}

/**
 * Where each visitor's conversation lives, keyed by session id. The in-process store is the
 * default; a shared store (Redis) replaces it for replicas without the actors knowing.
 * Implementations bound each conversation to its last exchanges and forget idle sessions.
 */
export interface ConversationStore {
  /** The session's remembered turns, oldest first, as the model gets them; empty for an unknown or forgotten session. */
  history(sessionId: string): Promise<readonly ConversationTurn[]>;
  /** The same turns with the time each was said, for the visitor. */
  messages(sessionId: string): Promise<readonly TimedTurn[]>;
  /** Records one exchange of the session (or in place of the last one, `marks.replace`), forgetting the oldest beyond the bound. */
  remember(sessionId: string, message: string, reply: string, times?: ExchangeTimes, marks?: ExchangeMarks): Promise<void>;
  /** Forgets the session's conversation: its next message starts afresh. */
  forget(sessionId: string): Promise<void>;
  /** Releases timers and connections. */
  close(): Promise<void>;
}
