import { ImportFileError, arrayAt, branch, objectAt, pick, secondsToIso, type ImportedMessage } from './imported-message.js';

// Open WebUI's chat export (a chat's menu → Download → Export chat (.json), or Settings → Chats →
// Export): an array of chat records `{ id, title, chat: { title, models, history: { messages:
// { id → { id, parentId, childrenIds, role, content, timestamp } }, currentId }, messages: […] },
// created_at, updated_at }`. `history` is the tree of every version; `messages` the shown branch.
// Times are in seconds.

/** The chat object of a record, or the chat itself. */
function chatOf(document: unknown): Record<string, unknown> | undefined {
  const first = Array.isArray(document) ? document[0] : document;
  if (typeof first !== 'object' || first === null) return undefined;
  const chat = (first as { chat?: unknown }).chat;
  return typeof chat === 'object' && chat !== null ? (chat as Record<string, unknown>) : (first as Record<string, unknown>);
}

/** Whether `document` looks like an Open WebUI chat export (records with a `chat`, or a chat with a `history`). */
export function isOpenWebUiExport(document: unknown): boolean {
  const chat = chatOf(document);
  return chat !== undefined && (typeof chat.history === 'object' || (Array.isArray(chat.messages) && 'models' in chat));
}

/** The messages of the chat at `index` (the first by default) along its shown branch (`history.currentId`, else `messages`). */
export function readOpenWebUiExport(document: unknown, index: number): ImportedMessage[] {
  const record = objectAt(Array.isArray(document) ? pick(document, index, 'the export') : document, 'the chat');
  const chat = objectAt(record.chat ?? record, 'the chat');
  const history = chat.history === undefined ? undefined : objectAt(chat.history, 'chat.history');
  const nodes =
    history === undefined
      ? arrayAt(chat.messages, 'chat.messages')
      : branch(
          objectAt(history.messages, 'chat.history.messages'),
          typeof history.currentId === 'string' ? history.currentId : undefined,
          (node) => (typeof node === 'object' && node !== null ? (node as { parentId?: unknown }).parentId : undefined),
        );
  if (history !== undefined && nodes.length === 0 && Object.keys(objectAt(history.messages, 'chat.history.messages')).length > 0) {
    throw new ImportFileError(`chat.history.currentId ${JSON.stringify(history.currentId)} is not one of its messages`);
  }
  const fallback = secondsToIso(record.created_at) ?? secondsToIso(chat.timestamp);
  const messages: ImportedMessage[] = [];
  nodes.forEach((node, i) => {
    const message = objectAt(node, `message ${i + 1}`);
    if (message.role !== 'user' && message.role !== 'assistant') return;
    if (typeof message.content !== 'string') throw new ImportFileError(`message ${i + 1}'s content is not a string`);
    if (message.content.trim() === '') return;
    messages.push({ role: message.role, content: message.content, at: secondsToIso(message.timestamp) ?? fallback ?? '' });
  });
  return messages;
}
