/**
 * `PATH=VALUE` as `hub webhooks send --set` takes it: the value is read as JSON when it parses
 * (`true`, `3`, `null`, `{"a":1}`, `"quoted"`), else taken as a string (`gpt2`).
 */
export function parseAssignment(text: string): { path: string[]; value: unknown } {
  const equals = text.indexOf('=');
  if (equals <= 0) throw new RangeError(`Invalid --set "${text}": expected PATH=VALUE, e.g. repo.name=me/my-model.`);
  const path = text
    .slice(0, equals)
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.');
  if (path.some((key) => key === ''))
    throw new RangeError(`Invalid --set path "${text.slice(0, equals)}": use keys between dots, e.g. repo.tags[0].`);
  const raw = text.slice(equals + 1);
  let value: unknown = raw;
  try {
    value = JSON.parse(raw);
  } catch {
    // Not JSON: the string as written.
  }
  return { path, value };
}

/** Sets `value` at `path` in `target` (changed in place), making the objects on the way that are missing. */
export function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node: Record<string, unknown> = target;
  path.forEach((key, i) => {
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') throw new RangeError(`Invalid --set key "${key}".`);
    if (i === path.length - 1) {
      node[key] = value;
      return;
    }
    const next = node[key];
    if (next === undefined || next === null) node[key] = {};
    else if (typeof next !== 'object')
      throw new RangeError(`Cannot set ${path.join('.')}: ${path.slice(0, i + 1).join('.')} is not an object.`);
    node = node[key] as Record<string, unknown>;
  });
}
