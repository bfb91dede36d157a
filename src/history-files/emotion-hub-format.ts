import type { HistoryMessage } from '../bus/events.js';
import { Compile, type Validator } from 'typebox/compile';
import { AppraisalSchema } from '../emotions/schemas.js';
import { ImportFileError, arrayAt, objectAt, type ImportedMessage } from './imported-message.js';

/** The name of emotion-hub's own export format, in its `format` field. */
export const HISTORY_FORMAT = 'emotion-hub.history';
/** Its version: a reader refuses a later one rather than guess at it. */
export const HISTORY_VERSION = 1;

/** One message as the export writes it (docs/chat-api.md#export-and-import). */
export interface ExportedMessage {
  readonly role: 'user' | 'assistant';
  readonly content: string;
  readonly time: string;
  readonly appraisal?: HistoryMessage['appraisal'];
  readonly stopped?: boolean;
  readonly alternatives?: { readonly content: string; readonly time: string; readonly stopped?: boolean }[];
}

/** `GET /api/history/export`'s document. */
export interface HistoryExport {
  readonly format: typeof HISTORY_FORMAT;
  readonly version: typeof HISTORY_VERSION;
  readonly exported_at: string;
  readonly messages: ExportedMessage[];
}

/** The visitor's conversation as the export document: the turn ids stay behind (they name streams of this service only). */
export function exportDocument(messages: readonly HistoryMessage[], exportedAt: string): HistoryExport {
  return {
    format: HISTORY_FORMAT,
    version: HISTORY_VERSION,
    exported_at: exportedAt,
    messages: messages.map(({ role, content, at, appraisal, stopped, alternatives }) => ({
      role,
      content,
      time: at,
      ...(appraisal === undefined ? {} : { appraisal }),
      ...(stopped ? { stopped } : {}),
      ...(alternatives === undefined || alternatives.length === 0
        ? {}
        : {
            alternatives: alternatives.map((version) => ({
              content: version.content,
              time: version.at,
              ...(version.stopped ? { stopped: true } : {}),
            })),
          }),
    })),
  };
}

/** Whether `document` says it is this format (whatever its version). */
export function isHistoryExport(document: unknown): boolean {
  return typeof document === 'object' && document !== null && (document as Record<string, unknown>).format === HISTORY_FORMAT;
}

function timeAt(value: unknown, where: string): string {
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) throw new ImportFileError(`${where} is not an ISO 8601 time`);
  return new Date(value).toISOString();
}

function textAt(value: unknown, where: string): string {
  if (typeof value !== 'string') throw new ImportFileError(`${where} is not a string`);
  return value;
}

let appraisalCheck: Validator | undefined;

/** An appraisal as the export wrote it, checked against the schema the history keeps it by. */
function appraisalAt(value: unknown, where: string): HistoryMessage['appraisal'] {
  appraisalCheck ??= Compile(AppraisalSchema);
  if (appraisalCheck.Check(value)) return value as HistoryMessage['appraisal'];
  const [first] = appraisalCheck.Errors(value);
  throw new ImportFileError(`${where}${first?.instancePath ?? ''} ${first?.message ?? 'is not an appraisal'}`);
}

/** The messages of an emotion-hub export, checked field by field; the error names the first that is wrong. */
export function readHistoryExport(document: unknown): ImportedMessage[] {
  const file = objectAt(document, 'the file');
  if (file.version !== HISTORY_VERSION)
    throw new ImportFileError(`version ${JSON.stringify(file.version)} is not one this service reads (${HISTORY_VERSION})`);
  return arrayAt(file.messages, 'messages').map((entry, i) => {
    const where = `messages[${i}]`;
    const message = objectAt(entry, where);
    if (message.role !== 'user' && message.role !== 'assistant')
      throw new ImportFileError(`${where}.role is neither "user" nor "assistant"`);
    const alternatives =
      message.alternatives === undefined
        ? []
        : arrayAt(message.alternatives, `${where}.alternatives`).map((version, j) => {
            const at = `${where}.alternatives[${j}]`;
            const earlier = objectAt(version, at);
            return {
              content: textAt(earlier.content, `${at}.content`),
              at: timeAt(earlier.time, `${at}.time`),
              ...(earlier.stopped === true ? { stopped: true } : {}),
            };
          });
    return {
      role: message.role,
      content: textAt(message.content, `${where}.content`),
      at: timeAt(message.time, `${where}.time`),
      ...(message.appraisal === undefined ? {} : { appraisal: appraisalAt(message.appraisal, `${where}.appraisal`) }),
      ...(message.stopped === true ? { stopped: true } : {}),
      ...(alternatives.length === 0 ? {} : { alternatives }),
    };
  });
}
