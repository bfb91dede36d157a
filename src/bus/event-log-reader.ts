import { createReadStream } from 'node:fs';
import type { TSchema } from 'typebox';
import { Compile, type Validator } from 'typebox/compile';
import type { TLocalizedValidationError } from 'typebox/error';
import { EVENT_SCHEMAS, isEventType, type BusEvent } from './events.js';
import { LEGACY_EVENT_SCHEMAS, isLegacyEventType, type LegacyEvent } from './legacy-events.js';

/** What a log holds: the catalogue's events, and in logs written before `mood.changed`, the old ones. */
export type LoggedEvent = BusEvent | LegacyEvent;

/** A line of an event log that is not an event, named by its 1-based number. */
export class EventLogLineError extends Error {
  override readonly name = 'EventLogLineError';
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
  ) {
    super(`${file}:${line}: ${reason}`);
  }
}

export interface ReadEventLogOptions {
  /**
   * Skip a final line that has no newline and does not parse: the tail a
   * crash cut short. Any other malformed line is still an error.
   */
  readonly allowTruncatedTail?: boolean;
  /** Called with the number of a skipped truncated tail line. */
  readonly onTruncatedTail?: (line: number) => void;
}

/** One compiled validator per schema, compiled once, when a log first holds its type. */
const validators = new Map<TSchema, Validator>();

function validatorFor(schema: TSchema): Validator {
  let validator = validators.get(schema);
  if (validator === undefined) {
    validator = Compile(schema);
    validators.set(schema, validator);
  }
  return validator;
}

/** The schemas a line of this type may match: the current one first, then the old shape. */
function schemasOf(type: unknown): TSchema[] {
  return [isEventType(type) ? EVENT_SCHEMAS[type] : undefined, isLegacyEventType(type) ? LEGACY_EVENT_SCHEMAS[type] : undefined].filter(
    (schema) => schema !== undefined,
  );
}

/** Checks one parsed line; returns why it is not an event (naming its type and field), or undefined. */
function problemWith(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  const { type } = value as { type?: unknown };
  const schemas = schemasOf(type);
  if (schemas.length === 0) return `unknown event type ${JSON.stringify(type)}`;
  if (schemas.some((schema) => validatorFor(schema).Check(value))) return undefined;
  const [first] = validatorFor(schemas[0]!).Errors(value);
  return `${String(type)}: ${describeSchemaError(first)}`;
}

/** `/deltas/joy: expected number`, `/deltas: required`: the field by its JSON pointer, and what is wrong. */
function describeSchemaError(error: TLocalizedValidationError | undefined): string {
  if (error === undefined) return 'invalid';
  const { keyword, instancePath, params } = error;
  if (keyword === 'required') {
    const names = (params as { requiredProperties?: string[] }).requiredProperties ?? [];
    return names.map((name) => `${instancePath}/${name}: required`).join(', ');
  }
  const at = instancePath === '' ? '/' : instancePath;
  if (keyword === 'type') return `${at}: expected ${String((params as { type?: unknown }).type)}`;
  return `${at}: ${error.message}`;
}

function parseLine(file: string, number: number, text: string): LoggedEvent {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new EventLogLineError(file, number, `malformed JSON (${(error as Error).message})`);
  }
  const problem = problemWith(value);
  if (problem) throw new EventLogLineError(file, number, problem);
  return value as LoggedEvent;
}

/** The byte order mark an editor may put first in a UTF-8 file: not part of the first line. */
const BOM = '\uFEFF';

/**
 * Yields the events of a JSONL event log in order, streaming. Blank lines are skipped, and a
 * leading UTF-8 byte order mark. A line longer than a chunk is kept as its pieces and joined once,
 * at its newline: gluing each chunk onto the pending text and splitting it again made one long line
 * quadratic (a 64 MB line took 34 s).
 */
export async function* readEventLog(file: string, options: ReadEventLogOptions = {}): AsyncGenerator<LoggedEvent> {
  let pieces: string[] = [];
  let number = 0;
  let first = true;
  for await (const chunk of createReadStream(file, { encoding: 'utf8' })) {
    let text = chunk as string;
    if (first && text.startsWith(BOM)) text = text.slice(BOM.length);
    first = false;
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      pieces.push(text.slice(start, end));
      const line = pieces.join('');
      pieces = [];
      start = end + 1;
      number += 1;
      if (line.trim() !== '') yield parseLine(file, number, line);
    }
    if (start < text.length) pieces.push(text.slice(start));
  }
  const pending = pieces.join('');
  if (pending.trim() === '') return;
  number += 1;
  try {
    yield parseLine(file, number, pending);
  } catch (error) {
    if (!options.allowTruncatedTail) throw error;
    options.onTruncatedTail?.(number);
  }
}
