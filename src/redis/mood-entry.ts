import { Compile } from 'typebox/compile';
import { MoodChangeSchema } from '../emotions/schemas.js';
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

/**
 * A `MoodChange` as JSON, checked with its schema (`MoodChangeSchema`: a sentiment's scores in 0..1,
 * every emotion's delta present and in -1..1, an ISO 8601 time), so a replica applies nothing the
 * event log would refuse. This module loads only on a replica (`REDIS_URL`), so typebox stays off a
 * lone service's startup.
 */
const isMoodChange = Compile(MoodChangeSchema);

/** A stream entry is a chat or a drift; a snapshot is never appended, it is the snapshot key's. */
function changeOf(value: unknown): MoodChange | undefined {
  return isMoodChange.Check(value) && value.kind !== 'snapshot' ? value : undefined;
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
