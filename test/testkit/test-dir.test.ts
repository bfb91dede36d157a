import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { testDir } from '../support/test-dir.js';

t.test('a testDir is still there for the teardowns, and gone after them', async (t) => {
  let dir = '';
  let seen: boolean | undefined;
  await t.test('a service that writes at its stop', async (t) => {
    dir = testDir(t);
    t.teardown(() => {
      seen = existsSync(dir);
      writeFileSync(join(dir, 'emotions.json'), '{}');
    });
  });
  t.equal(seen, true, 'the folder is there when the service stops');
  t.notOk(existsSync(dir), 'removed with what the stop wrote');
});

t.test('tap alone removes a fixture made before the first teardown ahead of the teardowns', async (t) => {
  let seen: boolean | undefined;
  await t.test('plain t.testdir', async (t) => {
    const dir = t.testdir();
    t.teardown(() => {
      seen = existsSync(dir);
    });
  });
  t.equal(seen, false, 'why testDir exists: if tap changes this, testDir can go');
});
