import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
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

/**
 * The folders of src/, bottom to top (issue 33): an import runs down this table or stays on its row,
 * never up. A new folder fails the test below until it is placed here. `index.ts` is src/index.ts.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['runtime', 'errors', 'types'],
  ['emotions'],
  ['bus'],
  // The ports and the models: each takes plain values from its caller, never the environment's reading (issue 42).
  ['appraisal', 'persistence', 'conversations', 'turns', 'replay', 'hub'],
  // What the environment sets, read once: above what takes plain values, below what is built from it.
  ['config'],
  ['providers'],
  ['mood-ledger'],
  ['embedded', 'redis'],
  ['webhooks'],
  // The one pick of in-process, embedded or Redis adapters: above every adapter, below the actors they serve.
  ['adapters'],
  ['actors'],
  ['system'],
  ['http'],
  ['service'],
  ['supervisor'],
  ['cli'],
  ['index.ts'],
];
const LAYER_OF = new Map(LAYERS.flatMap((row, layer) => row.map((folder) => [folder, layer] as const)));

/** The folder of src/ a path is in (`index.ts` for src/index.ts), or undefined outside src/. */
function srcFolder(path: string): string | undefined {
  const [top, folder] = path.split('/');
  return top === 'src' ? folder : undefined;
}

/** Every import from one folder of src/ into another, as `importing file → imported file`. */
const crossings = relativeImports('src').flatMap(({ file, target }) => {
  const from = srcFolder(file);
  const to = srcFolder(target);
  return to === undefined || from === to ? [] : [{ file, target, from: from!, to }];
});

/** The imports from src/<from>/ into src/<to>/, each naming its file: what a tie that came back shows. */
const tie = (from: string, to: string) =>
  crossings.filter((crossing) => crossing.from === from && crossing.to === to).map(({ file, target }) => `${file} → ${target}`);

/** The eight imports issue 33 found running against the layers, each with where its need went instead. */
const TIES = [
  ['config', 'conversations', 'the session defaults and the session secret live in config/'],
  ['config', 'redis', 'the prefix default and the Redis URL check live in config/'],
  ['config', 'mood-ledger', 'the drift lease default lives in config/'],
  ['service', 'supervisor', "the supervisor's messages live with the service"],
  ['redis', 'webhooks', 'the delivery dedup on Redis lives with the webhooks'],
  ['http', 'webhooks', 'escapeHtml lives in runtime/'],
  ['http', 'conversations', 'the session secret lives beside the config'],
  ['errors', 'bus', 'the phase wording lives in http/'],
] as const;

for (const [from, to, instead] of TIES)
  t.test(`${from} imports nothing from ${to}: ${instead}`, async (t) => {
    t.same(tie(from, to), []);
  });

t.test('errors/ imports nothing at all, not even a package', async (t) => {
  const imports = readdirSync(join(ROOT, 'src/errors'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .flatMap((entry) => {
      const path = join(entry.parentPath, entry.name);
      // `from '…'`, `import '…'` and `import('…')`: any module, relative or a package.
      return [...readFileSync(path, 'utf8').matchAll(/\b(?:from|import)\s*\(?\s*'([^']+)'/g)].map(
        ([, specifier]) => `${relative(ROOT, path)} → ${specifier}`,
      );
    });
  t.same(imports, []);
});

t.test('every import between folders of src/ runs down the layers, and every folder has its layer', async (t) => {
  const folders = new Set(crossings.flatMap(({ from, to }) => [from, to]));
  for (const entry of readdirSync(join(ROOT, 'src'), { withFileTypes: true }))
    if (entry.isDirectory() || entry.name.endsWith('.ts')) folders.add(entry.name);
  t.same(
    [...folders].filter((folder) => !LAYER_OF.has(folder)),
    [],
    'folders of src/ in no layer: place each in LAYERS',
  );
  t.same(
    crossings
      .filter(({ from, to }) => LAYER_OF.has(from) && LAYER_OF.has(to) && LAYER_OF.get(to)! > LAYER_OF.get(from)!)
      .map(({ file, target }) => `${file} → ${target}`),
    [],
    'imports running up the layers',
  );
});

t.test('the conversation store takes its bounds as plain numbers: nothing in conversations/ reads the config', async (t) => {
  t.same(tie('conversations', 'config'), []);
});

t.test('src/index.ts is the top: nothing in src/ imports it', async (t) => {
  t.same(
    crossings.filter(({ to }) => to === 'index.ts').map(({ file }) => file),
    [],
  );
  t.equal(LAYERS.at(-1)?.join(), 'index.ts');
});

/** The circles of a graph (folders, or files), each as `a → b → a`. */
function circlesIn(next: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const circles: string[] = [];
  const done = new Set<string>();
  // Depth first from each node; meeting a node still on the path closes a circle.
  const visit = (node: string, path: readonly string[]) => {
    const at = path.indexOf(node);
    if (at >= 0) return void circles.push([...path.slice(at), node].join(' → '));
    if (done.has(node)) return;
    for (const to of next.get(node) ?? []) visit(to, [...path, node]);
    done.add(node);
  };
  for (const node of next.keys()) visit(node, []);
  return circles;
}

t.test('no circle between folders of src/, on one layer or across', async (t) => {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of crossings) next.set(from, (next.get(from) ?? new Set()).add(to));
  t.same(circlesIn(next), []);
});

t.test('no circle between the files of one folder of src/: the shared names sit in a file that imports neither side', async (t) => {
  const next = new Map<string, Set<string>>();
  for (const { file, target } of relativeImports('src')) {
    const to = target.replace(/\.js$/, '.ts');
    if (dirname(to) === dirname(file)) next.set(file, (next.get(file) ?? new Set()).add(to));
  }
  t.same(circlesIn(next), []);
});
