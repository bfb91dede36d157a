import type { HistoryMessage } from '../bus/events.js';

/** A message as an import brings it, in any format: the history's own shape, its optional parts only where the file had them. */
export type ImportedMessage = HistoryMessage;

/** A file that cannot be imported: the message names what is wrong (the route answers 400 with it). */
export class ImportFileError extends Error {
  override readonly name = 'ImportFileError';
}

/** `value` as a plain object, or the error naming `where`. */
export function objectAt(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ImportFileError(`${where} is not an object`);
  return value as Record<string, unknown>;
}

/** `value` as an array, or the error naming `where`. */
export function arrayAt(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) throw new ImportFileError(`${where} is not an array`);
  return value;
}

/** A time given in seconds since the epoch (ChatGPT's, Open WebUI's), as ISO 8601; none when it is not a finite number. */
export function secondsToIso(value: unknown): string | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value < 1e11
    ? new Date(value * 1000).toISOString()
    : undefined;
}

/** The conversation a file of several gives: the first, or `index` (0-based); the error names the count when it has none there. */
export function pick<T>(conversations: readonly T[], index: number, what: string): T {
  const chosen = conversations[index];
  if (chosen === undefined) {
    throw new ImportFileError(
      conversations.length === 0
        ? `${what} holds no conversation`
        : `${what} holds ${conversations.length} conversations: no index ${index}`,
    );
  }
  return chosen;
}

/**
 * Messages along a tree's chosen branch (ChatGPT's `mapping`, Open WebUI's `history`): from `leaf`
 * up through each node's parent to the root, then oldest first. A cycle or a missing parent ends it.
 */
export function branch<N>(nodes: Record<string, N>, leaf: string | undefined, parentOf: (node: N) => unknown): N[] {
  const path: N[] = [];
  const seen = new Set<string>();
  let id = leaf;
  while (typeof id === 'string' && Object.hasOwn(nodes, id) && !seen.has(id)) {
    seen.add(id);
    const node = nodes[id] as N;
    path.push(node);
    const parent = parentOf(node);
    id = typeof parent === 'string' ? parent : undefined;
  }
  return path.reverse();
}
