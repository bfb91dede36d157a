import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import t from 'tap';
import { ROOT } from '../../testkit/package-root.js';

/** Every relative import of every .ts file under `folder`, as a path from the repository's root. */
function relativeImports(folder: string): Array<{ file: string; target: string }> {
  const found: Array<{ file: string; target: string }> = [];
  for (const entry of readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const path = join(entry.parentPath, entry.name);
    for (const [, specifier] of readFileSync(path, 'utf8').matchAll(/(?:from|import\(?)\s*'(\.{1,2}\/[^']+)'/g))
      found.push({ file: relative(ROOT, path), target: relative(ROOT, resolve(entry.parentPath, specifier!)) });
  }
  return found;
}

const outside = (folder: string, allowed: readonly string[]) =>
  relativeImports(folder).filter(({ target }) => !allowed.some((prefix) => target.startsWith(`${prefix}/`)));

t.test('the bench measures the product with its own stand-ins and the shared testkit, never the tests', async (t) => {
  t.same(outside('bench', ['bench', 'testkit']), []);
});

t.test('testkit, shared by the tests and the bench, imports neither', async (t) => {
  t.same(outside('testkit', ['testkit']), []);
});

t.test('the emotions model imports nothing but itself; the Redis layer never reaches into the actors', async (t) => {
  t.same(outside('src/emotions', ['src/emotions']), []);
  t.same(
    relativeImports('src/redis').filter(({ target }) => target.startsWith('src/actors/')),
    [],
  );
});
