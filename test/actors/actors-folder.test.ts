import { readdirSync, readFileSync } from 'node:fs';
import t from 'tap';

// src/actors/ holds actors only (docs/architecture.md): each module defines XState actors. The system
// as a whole (src/system/), replay (src/replay/) and bus helpers (src/bus/) live elsewhere.
const ACTORS = new URL('../../src/actors/', import.meta.url);

t.test('every module of src/actors defines XState actors, or states of the system machine', (t) => {
  const modules = readdirSync(ACTORS).filter((name) => /\.[jt]s$/.test(name) && !name.endsWith('.d.ts') && !name.endsWith('.map'));
  t.ok(modules.length >= 8, 'the actors are there');
  for (const name of modules) {
    const source = readFileSync(new URL(name, ACTORS), 'utf8');
    t.match(source, /\b(setup|fromPromise|fromCallback|createMachine|createStateConfig)\b/, `${name} defines an actor`);
    // A state of the system machine is written against the setup it is given, which builds on xstate.
    if (!source.includes('.createStateConfig(')) t.match(source, /from ['"]xstate['"]/, `${name} builds on xstate`);
  }
  t.end();
});
