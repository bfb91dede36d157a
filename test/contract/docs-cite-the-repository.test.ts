import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import t from 'tap';
import { ROOT } from '../../testkit/package-root.js';

// What a reader of a clone has is the repository: the README and docs/ say everything in their own
// words and link only to its files, never to notes kept beside it.
const DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' }).map((name) => join('docs', name))]
  .filter((path) => path.endsWith('.md'))
  .map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }));

t.test('the docs are read', async (t) => {
  t.ok(DOCS.length > 10, `${DOCS.length} files`);
  t.ok(
    DOCS.some(({ path }) => path === 'docs/architecture.md'),
    'docs/architecture.md among them',
  );
});

t.test('no doc cites DESIGN.md or the shared notes beside the repository', async (t) => {
  const citations = DOCS.flatMap(({ path, text }) =>
    text
      .split('\n')
      .flatMap((line, index) => (/DESIGN\.md|\.\.\/shared\b|\/work\/shared/.test(line) ? [`${path}:${index + 1}: ${line.trim()}`] : [])),
  );
  t.same(citations, []);
});

t.test('every relative link of the docs names a file of the repository that is there', async (t) => {
  const broken = DOCS.flatMap(({ path, text }) =>
    [...text.matchAll(/\]\(([^)\s]+)\)/g)].flatMap(([, target]) => {
      if (/^[a-z][a-z+.-]*:/i.test(target!) || target!.startsWith('#')) return [];
      const file = resolve(ROOT, dirname(path), target!.split('#')[0]!);
      const inside = !relative(ROOT, file).startsWith('..');
      return inside && existsSync(file) ? [] : [`${path} → ${target}`];
    }),
  );
  t.same(broken, []);
});

t.test('emotions.db is a file: no doc writes it as a folder', async (t) => {
  t.same(
    DOCS.filter(({ text }) => /emotions\.db\//.test(text)).map(({ path }) => path),
    [],
  );
});
