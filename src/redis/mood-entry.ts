import type { TSchema } from 'typebox';
import { Compile, type Validator } from 'typebox/compile';
import type { MoodChange } from '../emotions/emotions.js';
import { MoodChangeSchema } from '../emotions/schemas.js';

/** Where a replica is in the stream: the last entry it applied and that entry's number. */
export interface StreamPosition {
  /** The Redis stream id, `<ms>-<n>`; `0-0` before the first entry. */
  readonly id: string;
  /** The entry's number: the first entry is 1 and each next one is one more. */
  readonly seq: number;
}

export const STREAM_START: StreamPosition = { id: '0-0', seq: 0 };

/**
 * One stream entry, decoded: the change it carries, or why no replica may apply it (`refused`).
 * A refused entry still holds its place in the numbering.
 */
export type MoodEntry =
  | { readonly position: StreamPosition; readonly change: MoodChange }
  | { readonly position: StreamPosition; readonly refused: string };

/** The entry's `change` field: the change as JSON, numbers unrounded. */
export function encodeMoodChange(change: MoodChange): string {
  return JSON.stringify(change);
}

// The emotion model's own schema: every value in range (sentiment and emotions in 0..1, deltas in
// −1..1), every time a date, every field there. One validator per kind of change, compiled when a
// replica first reads an entry, so that a refusal names the field of that kind that is wrong.
let validators: Map<unknown, Validator> | undefined;

/** Why `value` is not a mood change this version can apply (the first field that is wrong), or undefined. */
function problemWith(value: unknown): string | undefined {
  validators ??= new Map(MoodChangeSchema.anyOf.map((kind) => [kind.properties.kind.const, Compile(kind as TSchema)]));
  const validator = validators.get((value as { kind?: unknown } | null)?.kind);
  if (validator === undefined) return `/kind must be one of ${[...validators.keys()].join(', ')}`;
  if (validator.Check(value)) return undefined;
  const [first] = validator.Errors(value);
  return first ? `${first.instancePath || '/'} ${first.message}` : 'not a mood change';
}

/**
 * Decodes one `[id, [field, value, …]]` entry as XRANGE and XREAD return it. An entry without a
 * readable number is taken to be the one after `previous` (only the ledger's script writes entries,
 * and it always numbers them), so that refusing it leaves no gap.
 */
export function decodeMoodEntry([id, fields]: [string, string[]], previous: StreamPosition): MoodEntry {
  const values = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) values.set(fields[i]!, fields[i + 1]!);
  const seq = Number(values.get('seq'));
  if (!Number.isSafeInteger(seq) || seq < 1) {
    return { position: { id, seq: previous.seq + 1 }, refused: `its number ${JSON.stringify(values.get('seq'))} is not an entry number` };
  }
  const position = { id, seq };
  let value: unknown;
  try {
    value = JSON.parse(values.get('change') ?? '');
  } catch {
    return { position, refused: 'its change is not JSON' };
  }
  const problem = problemWith(value);
  return problem === undefined
    ? { position, change: value as MoodChange }
    : { position, refused: `its change is not one this version can apply (${problem})` };
}
