import { copyFileSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { embeddedStorePath, openEmbeddedStore } from '../../src/embedded/embedded-store.js';
import { probeStoreFile } from '../../src/embedded/store-probe.js';
import { defaultState } from '../../src/emotions/state.js';
import { fixedClock } from '../../src/runtime/clock.js';
import { DEFAULT_MAX_SESSION_BYTES } from '../../src/config/defaults.js';

const START = '2026-11-21T10:00:00.000Z';

/** A store with a mood and 300 conversations, closed: several hundred KiB, as a used one is. */
async function usedStore(dir: string): Promise<string> {
  const emotionsFile = join(dir, 'emotions.json');
  const store = openEmbeddedStore(emotionsFile, {
    maxSessions: 1000,
    idleMs: 3_600_000,
    maxBytes: DEFAULT_MAX_SESSION_BYTES,
    clock: fixedClock(START),
  });
  store.ledger.startFrom(defaultState(START));
  for (let n = 0; n < 300; n += 1) {
    const exchange = {
      session: `visitor-${n}`,
      message: 'hello '.repeat(40),
      reply: 'hi '.repeat(40),
      times: { message: START, reply: START },
    };
    await store.ledger.append(
      { kind: 'chat', correlationId: `c${n}`, sentiment: { sentiment: 'neutral', positive: 0, negative: 0 }, at: START },
      exchange,
    );
  }
  await store.ledger.close();
  await store.close();
  return embeddedStorePath(emotionsFile);
}

t.test('a whole store passes; a missing one is not judged', async (t) => {
  const path = await usedStore(t.testdir());
  t.equal(await probeStoreFile(path), undefined);
  t.equal(await probeStoreFile(join(t.testdir(), 'nothing.db')), undefined);
});

t.test('the damage that crashes or hangs lmdb is found before it opens', async (t) => {
  const dir = t.testdir();
  const path = await usedStore(dir);
  const size = readFileSync(path).length;
  const damaged = (name: string, damage: (file: string) => void): Promise<string | undefined> => {
    const file = join(dir, name);
    copyFileSync(path, file);
    damage(file);
    return probeStoreFile(file);
  };
  t.match(await damaged('half.db', (file) => truncateSync(file, Math.floor(size / 2))), /cut short/, 'truncated to half');
  t.match(await damaged('one-page.db', (file) => truncateSync(file, 4096)), /cut short/, 'one page left');
  t.match(await damaged('zero.db', (file) => truncateSync(file, 0)), /empty \(0 bytes\)/, '0 bytes');
  const garbage = Buffer.alloc(4096, 0xa5);
  t.match(
    await damaged('garbage.db', (file) => writeFileSync(file, Buffer.concat([garbage, readFileSync(file).subarray(4096)]))),
    /page 0/,
    'bytes of no meaning over the first 4 KiB',
  );
  t.match(
    await damaged('second-meta.db', (file) => {
      const bytes = readFileSync(file);
      bytes.fill(0x5a, 4096, 8192);
      writeFileSync(file, bytes);
    }),
    /meta page 1/,
    'the second meta page damaged',
  );
});
