import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { ROOT } from '../support/built-cli.js';

// The emotion model is pure (docs/architecture.md#the-emotion-model-srcemotions-pure): no bus, no actors, no ledger, no clock,
// randomness or I/O of its own. Its files import one another (a mood change and its fold included), the schema builder and the lexicon.
const FOLDER = join(ROOT, 'src', 'emotions');
const ALLOWED = [/^\.\/[\w-]+\.js$/, /^typebox$/, /^sentiment$/];

t.test('src/emotions imports nothing from the bus, the actors, the runtime or node', (t) => {
  const files = readdirSync(FOLDER).filter((name) => name.endsWith('.ts'));
  t.ok(files.length >= 5, `the model's files are there (${files.join(', ')})`);
  for (const file of files) {
    const text = readFileSync(join(FOLDER, file), 'utf8');
    const specifiers = [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((match) => match[1]!);
    for (const specifier of specifiers) {
      t.ok(
        ALLOWED.some((allowed) => allowed.test(specifier)),
        `${file} imports ${specifier}`,
      );
    }
  }
  t.end();
});
