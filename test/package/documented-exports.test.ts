import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import * as events from '../../src/bus/events.js';
import * as emotions from '../../src/emotions/emotions.js';
import * as schemas from '../../src/emotions/schemas.js';
import * as hub from '../../src/hub/index.js';
import * as root from '../../src/index.js';
import * as chat from '../../src/service/index.js';
import * as webhooks from '../../src/webhooks/index.js';
import { ROOT } from '../support/built-cli.js';

// docs/package-exports.md says what `emotion-hub` exports: the three lighter entries whole, the
// catalogue modules, and the names of its table's Exports column. Nothing else may leave the package.
const page = readFileSync(join(ROOT, 'docs', 'package-exports.md'), 'utf8');
const table = /<!-- exports:begin -->([\s\S]*?)<!-- exports:end -->/.exec(page)?.[1] ?? '';
const documented = table
  .split('\n')
  .filter((line) => line.startsWith('| ') && !line.startsWith('| What') && !line.startsWith('|---'))
  .flatMap((line) => [...(line.split('|')[2] ?? '').matchAll(/`([A-Za-z_$][\w$]*)`/g)].map((match) => match[1] as string));

t.test('the page lists names', (t) => {
  t.ok(documented.length > 20, documented.join(', '));
  t.ok(documented.includes('createChatSystem'));
  t.end();
});

t.test("emotion-hub's exports are the documented ones, no more and no fewer", (t) => {
  const expected = new Set([
    ...Object.keys(hub),
    ...Object.keys(webhooks),
    ...Object.keys(chat),
    ...Object.keys(events),
    ...Object.keys(emotions),
    ...Object.keys(schemas),
    ...documented,
  ]);
  t.same(Object.keys(root).sort(), [...expected].sort());
  t.end();
});

t.test('the light entries are exported whole', (t) => {
  for (const [name, entry] of Object.entries({ hub, webhooks, chat })) {
    for (const key of Object.keys(entry))
      t.equal((root as Record<string, unknown>)[key], (entry as Record<string, unknown>)[key], `${name}: ${key}`);
  }
  t.end();
});
