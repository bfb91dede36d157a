import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { loadSessionSecret, SESSION_SECRET_FILE } from '../../src/config/session-secret.js';
import { testDir } from '../support/test-dir.js';

t.test('unset SESSION_SECRET: one is generated once, kept beside the emotions file with mode 0600', async (t) => {
  const dir = testDir(t);
  const emotionsFile = join(dir, 'emotions.json');
  const first = await loadSessionSecret({ configured: undefined, emotionsFile });
  t.match(first, { secret: /^[A-Za-z0-9_-]{43}$/, notKept: undefined }, '32 random bytes, kept');
  t.equal(statSync(join(dir, SESSION_SECRET_FILE)).mode & 0o777, 0o600);
  t.same(await loadSessionSecret({ configured: undefined, emotionsFile }), first, 'the next start reads it back');
  const both = await Promise.all([1, 2].map(() => loadSessionSecret({ configured: undefined, emotionsFile: join(dir, 'new', 'x.json') })));
  t.equal(both[0]!.secret, both[1]!.secret, 'two starts at once on a new folder keep one secret');
  const unwritable = await loadSessionSecret({ configured: undefined, emotionsFile: join(dir, SESSION_SECRET_FILE, 'x.json') });
  t.match(
    unwritable,
    { secret: /^[A-Za-z0-9_-]{43}$/, notKept: /cannot write/ },
    'a folder that cannot hold it: a secret for this process, and why',
  );
  t.same(
    await loadSessionSecret({ configured: 'from-the-environment', emotionsFile }),
    { secret: 'from-the-environment' },
    'SESSION_SECRET wins',
  );
});

t.test('a blank or short kept secret is never a key: a new one replaces it, whole, and says why', async (t) => {
  const dir = testDir(t);
  const emotionsFile = join(dir, 'emotions.json');
  const file = join(dir, SESSION_SECRET_FILE);
  for (const [kept, why] of [
    ['', /held no secret \(blank\): replaced/],
    ['\n  \n', /held no secret \(blank\): replaced/],
    ['abc', /held a secret of 3 characters, under 32: replaced/],
    ['x'.repeat(31), /held a secret of 31 characters, under 32: replaced/],
  ] as const) {
    writeFileSync(file, kept);
    const loaded = await loadSessionSecret({ configured: undefined, emotionsFile });
    t.match(loaded, { secret: /^[A-Za-z0-9_-]{43}$/, replaced: why, notKept: undefined }, JSON.stringify(kept));
    t.equal(readFileSync(file, 'utf8'), `${loaded.secret}\n`, 'the new one is kept in its place');
    t.equal(statSync(file).mode & 0o777, 0o600);
  }
  writeFileSync(file, 'y'.repeat(32));
  t.same(await loadSessionSecret({ configured: undefined, emotionsFile }), { secret: 'y'.repeat(32) }, '32 characters are a key');
  t.same(
    readdirSync(dir).filter((name) => name.includes('tmp')),
    [],
    'no temporary file is left',
  );
});
