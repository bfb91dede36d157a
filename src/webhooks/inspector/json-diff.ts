/** One difference between two payloads, at a path such as `repo.tags[0]`. */
export interface JsonChange {
  readonly path: string;
  readonly kind: 'added' | 'removed' | 'changed';
  readonly before?: unknown;
  readonly after?: unknown;
}

/** Every leaf of a JSON value by its path (an empty object or array is a leaf). */
function leaves(value: unknown, path: string, into: Map<string, unknown>): Map<string, unknown> {
  if (Array.isArray(value) && value.length > 0) {
    for (const [i, item] of value.entries()) leaves(item, `${path}[${i}]`, into);
  } else if (value !== null && typeof value === 'object' && Object.keys(value).length > 0)
    for (const [key, item] of Object.entries(value)) leaves(item, path === '' ? key : `${path}.${key}`, into);
  else into.set(path, value);
  return into;
}

/** What changed from `before` to `after`, leaf by leaf, in the order of their paths. */
export function jsonDiff(before: unknown, after: unknown): JsonChange[] {
  const a = leaves(before, '', new Map());
  const b = leaves(after, '', new Map());
  const changes: JsonChange[] = [];
  for (const path of [...new Set([...a.keys(), ...b.keys()])].sort()) {
    if (!b.has(path)) changes.push({ path, kind: 'removed', before: a.get(path) });
    else if (!a.has(path)) changes.push({ path, kind: 'added', after: b.get(path) });
    else if (JSON.stringify(a.get(path)) !== JSON.stringify(b.get(path)))
      changes.push({ path, kind: 'changed', before: a.get(path), after: b.get(path) });
  }
  return changes;
}
