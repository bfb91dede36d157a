import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { ROOT } from '../support/built-cli.js';

// The Redis adapters sit below the actors: they use the emotion model, the bus's types and the
// persistence layout, never an actor's module (the actors are given the adapters, not the reverse).
t.test('src/redis imports nothing from src/actors', (t) => {
  const folder = join(ROOT, 'src', 'redis');
  const files = readdirSync(folder).filter((name) => name.endsWith('.ts'));
  t.ok(files.length >= 5, `the adapters' files are there (${files.join(', ')})`);
  for (const file of files) {
    const text = readFileSync(join(folder, file), 'utf8');
    const specifiers = [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((match) => match[1]!);
    t.notOk(
      specifiers.some((specifier) => specifier.includes('/actors/')),
      `${file} imports ${specifiers.join(', ')}`,
    );
  }
  t.end();
});
