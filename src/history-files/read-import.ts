import { readChatGptExport, isChatGptExport } from './chatgpt-format.js';
import { isHistoryExport, readHistoryExport } from './emotion-hub-format.js';
import { ImportFileError, type ImportedMessage } from './imported-message.js';
import { isOpenWebUiExport, readOpenWebUiExport } from './open-webui-format.js';

/** The formats `POST /api/history/import` reads, as its answer names them. */
export type ImportFormat = 'emotion-hub' | 'chatgpt' | 'open-webui';

/** What a conversation may hold: the service's own bounds, which an import meets like a chat. */
export interface ImportBounds {
  /** A visitor's message at most this many characters (code points), as `MAX_MESSAGE_LENGTH`. */
  readonly maxMessageLength: number;
}

export interface ReadImport {
  readonly format: ImportFormat;
  readonly messages: ImportedMessage[];
}

/**
 * The messages a file brings, whichever of the three formats it is in (`index`: which conversation
 * of a file of several). Every message gets a time (the file's, else `now`). The error names what is
 * wrong: the format it could not tell, the field, the message over the limit.
 */
export function readImport(
  document: unknown,
  { index = 0, now, bounds }: { index?: number; now: string; bounds: ImportBounds },
): ReadImport {
  let read: ReadImport;
  if (isHistoryExport(document)) read = { format: 'emotion-hub', messages: readHistoryExport(document) };
  else if (isChatGptExport(document)) read = { format: 'chatgpt', messages: readChatGptExport(document, index) };
  else if (isOpenWebUiExport(document)) read = { format: 'open-webui', messages: readOpenWebUiExport(document, index) };
  else {
    throw new ImportFileError(
      'the file is none of the formats this service imports: an emotion-hub export ("format": "emotion-hub.history"), ChatGPT’s conversations.json, or an Open WebUI chat export',
    );
  }
  if (read.messages.length === 0) throw new ImportFileError('the conversation has no message to import');
  read.messages.forEach((message, i) => {
    const length = [...message.content].length;
    if (message.role === 'user' && length > bounds.maxMessageLength) {
      throw new ImportFileError(`message ${i + 1} is ${length} characters long: at most ${bounds.maxMessageLength}`);
    }
  });
  return { ...read, messages: read.messages.map((message) => (message.at === '' ? { ...message, at: now } : message)) };
}
