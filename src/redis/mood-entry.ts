import { EMOTION_NAMES, SENTIMENT_LABELS, emotionRecord, type EmotionDeltas, type Sentiment } from '../emotions/emotions.js';
import type { MoodChange } from '../mood/mood-ledger.js';

/** Where a replica is in the stream: the last entry it applied and that entry's number. */
export interface StreamPosition {
  /** The Redis stream id, `<ms>-<n>`; `0-0` before the first entry. */
  readonly id: string;
  /** The entry's number: the first entry is 1 and each next one is one more. */
  readonly seq: number;
}

export const STREAM_START: StreamPosition = { id: '0-0', seq: 0 };

/** One stream entry, decoded. */
export interface MoodEntry {
  readonly position: StreamPosition;
  readonly change: MoodChange;
}

/** A stream entry no replica can apply; the message names the entry. */
export class MoodEntryError extends Error {
  override readonly name = 'MoodEntryError';
}

/** The entry's `change` field: the change as JSON, numbers unrounded. */
export function encodeMoodChange(change: MoodChange): string {
  return JSON.stringify(change);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

function sentimentOf(value: unknown): Sentiment | undefined {
  if (!isRecord(value) || !SENTIMENT_LABELS.includes(value.sentiment as never)) return undefined;
  if (!isNumber(value.positive) || !isNumber(value.negative)) return undefined;
  return { sentiment: value.sentiment as Sentiment['sentiment'], positive: value.positive, negative: value.negative };
}

function deltasOf(value: unknown): EmotionDeltas | undefined {
  if (!isRecord(value) || !EMOTION_NAMES.every((name) => isNumber(value[name]))) return undefined;
  return emotionRecord((name) => value[name] as number);
}

function changeOf(value: unknown): MoodChange | undefined {
  if (!isRecord(value) || typeof value.at !== 'string') return undefined;
  if (value.kind === 'chat' && typeof value.correlationId === 'string') {
    const sentiment = sentimentOf(value.sentiment);
    return sentiment && { kind: 'chat', correlationId: value.correlationId, sentiment, at: value.at };
  }
  const deltas = value.kind === 'drift' ? deltasOf(value.deltas) : undefined;
  return deltas && { kind: 'drift', deltas, at: value.at };
}

/** Decodes one `[id, [field, value, …]]` entry as XRANGE and XREAD return it. */
export function decodeMoodEntry([id, fields]: [string, string[]]): MoodEntry {
  const values = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) values.set(fields[i]!, fields[i + 1]!);
  const field = (name: string): string | undefined => values.get(name);
  const seq = Number(field('seq'));
  let change: MoodChange | undefined;
  try {
    change = changeOf(JSON.parse(field('change') ?? ''));
  } catch {
    change = undefined;
  }
  if (!Number.isSafeInteger(seq) || seq < 1 || change === undefined) {
    throw new MoodEntryError(`mood stream entry ${id} is not a mood change this version can apply`);
  }
  return { position: { id, seq }, change };
}
