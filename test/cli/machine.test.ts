import { settings } from '@oclif/core';
import { runCommand } from '@oclif/test';
import t from 'tap';
import { ROOT } from '../support/built-cli.js';

settings.enableAutoTranspile = false;
t.afterEach(() => {
  process.exitCode = undefined;
});

t.test("hub machine prints the system machine's definition as JSON", async (t) => {
  const { stdout, error } = await runCommand(['machine'], { root: ROOT });
  t.equal(error, undefined);
  const definition = JSON.parse(stdout) as { id: string; states: Record<string, { states?: Record<string, unknown> }> };
  t.equal(definition.id, 'chatSystem');
  t.same(Object.keys(definition.states), ['initializing', 'ready', 'keyMissing', 'failed']);
  t.same(Object.keys(definition.states.initializing?.states ?? {}), ['waiting', 'stage1', 'stage2']);
});
