import { ImportFileError, branch, objectAt, pick, secondsToIso, type ImportedMessage } from './imported-message.js';

// ChatGPT's data export (Settings → Data controls → Export data) holds conversations.json: an array
// of conversations, each a tree of messages (`mapping`: node id → { message, parent, children }) whose
// shown branch ends at `current_node`. A message has `author.role` (user, assistant, system, tool),
// `content` (`content_type`, `parts`: strings, or objects for images and files), `create_time` in
// seconds, and `metadata`.

/** Whether `document` looks like conversations.json (or one conversation of it). */
export function isChatGptExport(document: unknown): boolean {
  const first = Array.isArray(document) ? document[0] : document;
  return typeof first === 'object' && first !== null && 'mapping' in first;
}

/** The text of a message's content: its string parts, joined; images and files have none. */
function textOf(content: Record<string, unknown> | undefined): string {
  if (content === undefined) return '';
  if (typeof content.text === 'string') return content.text;
  const parts = Array.isArray(content.parts) ? content.parts : [];
  return parts
    .filter((part): part is string => typeof part === 'string')
    .join('\n')
    .trim();
}

/**
 * The messages of the conversation at `index` (the first by default) along its shown branch: the
 * visitor's and the assistant's with text; system and tool messages, hidden ones and the other
 * branches (earlier edits there) stay behind.
 */
export function readChatGptExport(document: unknown, index: number): ImportedMessage[] {
  const conversation = objectAt(Array.isArray(document) ? pick(document, index, 'conversations.json') : document, 'the conversation');
  const mapping = objectAt(conversation.mapping, 'the conversation’s mapping') as Record<string, unknown>;
  const leaf =
    typeof conversation.current_node === 'string'
      ? conversation.current_node
      : // No current node: the last node without children ends the branch.
        Object.keys(mapping).findLast((id) => {
          const children = (mapping[id] as { children?: unknown })?.children;
          return !Array.isArray(children) || children.length === 0;
        });
  if (leaf !== undefined && !Object.hasOwn(mapping, leaf)) throw new ImportFileError(`current_node "${leaf}" is not in the mapping`);
  const messages: ImportedMessage[] = [];
  for (const node of branch(mapping, leaf, (node) => (node as { parent?: unknown })?.parent)) {
    const message = (node as { message?: unknown })?.message;
    if (typeof message !== 'object' || message === null) continue;
    const { author, content, create_time, metadata } = message as Record<string, unknown>;
    const role = (author as { role?: unknown } | undefined)?.role;
    if (role !== 'user' && role !== 'assistant') continue;
    if ((metadata as { is_visually_hidden_from_conversation?: unknown } | undefined)?.is_visually_hidden_from_conversation === true)
      continue;
    const text = textOf(content as Record<string, unknown> | undefined);
    if (text === '') continue;
    const at = secondsToIso(create_time) ?? secondsToIso(conversation.create_time);
    messages.push({ role, content: text, at: at ?? '' });
  }
  return messages;
}
