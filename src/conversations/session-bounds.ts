import type { LRUCache } from 'lru-cache';
import { epochMs, type Clock } from '../runtime/clock.js';
import { addExchange, type ConversationTurn, type ExchangeMarks, type ExchangeTimes, type TimedTurn } from './conversation-store.js';

/**
 * How many sessions, how long idle and how many bytes of text the conversations may take together:
 * plain numbers from the caller (the adapters read them from the environment, tests pick their own).
 */
export interface SessionBounds {
  /** Sessions kept; beyond it the least recently used is forgotten (`MAX_SESSIONS`). */
  readonly maxSessions: number;
  /** A session untouched this long is forgotten (`SESSION_IDLE_MS`). */
  readonly idleMs: number;
  /** The conversations' text in UTF-8 bytes, all together; beyond it the least recently used go first (`MAX_SESSION_BYTES`). */
  readonly maxBytes: number;
  /** Drives the idle expiry; tests pass a fixed clock. */
  readonly clock: Clock;
}

/** What a conversation counts against `MAX_SESSION_BYTES`: its text in UTF-8, earlier versions included (at least 1, as lru-cache wants). */
export function conversationBytes(turns: readonly (ConversationTurn & Pick<TimedTurn, 'alternatives'>)[]): number {
  let bytes = 0;
  for (const turn of turns) {
    bytes += Buffer.byteLength(turn.content, 'utf8');
    for (const version of turn.alternatives ?? []) bytes += Buffer.byteLength(version.content, 'utf8');
  }
  return Math.max(1, bytes);
}

/**
 * The conversation after one more exchange: the oldest turns beyond `maxTurns` forgotten, and
 * then the oldest exchanges while it is larger than `maxBytes` (one conversation never takes
 * the whole bound's room alone, however long its messages).
 */
export function withExchange(
  turns: readonly TimedTurn[],
  exchange: { readonly message: string; readonly reply: string; readonly times?: ExchangeTimes } & ExchangeMarks,
  maxTurns: number,
  maxBytes: number,
): readonly TimedTurn[] {
  let next = addExchange(turns, exchange, exchange).slice(-maxTurns);
  while (next.length > 0 && conversationBytes(next) > maxBytes) next = next.slice(2);
  return next;
}

/**
 * lru-cache options for a table of sessions under these bounds: count, idle time (renewed on every
 * read and write) and total size. Stale entries are not swept by a timer: they are dropped when
 * read, or pushed out by newer sessions, so the bounds hold without a timer.
 */
export function sessionCacheOptions<V extends {}>(
  bounds: SessionBounds,
  sizeOf: (value: V) => number,
): LRUCache.Options<string, V, unknown> {
  return {
    max: bounds.maxSessions,
    ttl: bounds.idleMs,
    updateAgeOnGet: true,
    // lru-cache reads this clock for the TTL; the default (performance.now) cannot be driven by a test.
    perf: { now: () => epochMs(bounds.clock) },
    // 0: read that clock at every check, rather than caching it behind a 1 ms timer.
    ttlResolution: 0,
    maxSize: bounds.maxBytes,
    sizeCalculation: sizeOf,
  };
}
