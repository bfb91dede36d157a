import { copyFileSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { embeddedStorePath, openEmbeddedStore } from '../../src/embedded/embedded-store.js';
import { probeStoreFile, readStoreApart, storeFileProblem } from '../../src/embedded/store-probe.js';
import { defaultState } from '../../src/emotions/state.js';
import { fixedClock } from '../../src/runtime/clock.js';
import { DEFAULT_MAX_SESSION_BYTES } from '../../src/config/defaults.js';
import { testDir } from '../support/test-dir.js';

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
  const path = await usedStore(testDir(t));
  t.equal(await probeStoreFile(path), undefined);
  t.equal(await probeStoreFile(join(testDir(t), 'nothing.db')), undefined);
});

t.test('the damage that crashes or hangs lmdb is found before it opens', async (t) => {
  const dir = testDir(t);
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

t.test('read apart: a used store reads whole; damage past the meta pages is found; a read that does not end is killed', async (t) => {
  const path = await usedStore(testDir(t));
  t.equal(await readStoreApart(path), undefined, 'a used store reads whole');
  const bytes = readFileSync(path);
  const whole = Buffer.from(bytes);
  // Past the meta pages (the probe passes), over the conversations' pages: random bytes of a fixed seed.
  let seed = 1;
  for (let i = 8192; i < 8192 + 65_536 && i < bytes.length; i += 1) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    bytes[i] = (seed >>> 16) & 255;
  }
  writeFileSync(path, bytes);
  t.equal(await probeStoreFile(path), undefined, 'the head looks whole');
  t.match(
    await readStoreApart(path),
    /^(it could not be read|reading it crashed|reading it did not end)/,
    'reading it apart finds the damage',
  );
  t.ok(readFileSync(path).equals(bytes), 'and writes nothing');
  writeFileSync(path, whole);
  t.equal(await readStoreApart(path, undefined, 1), 'reading it did not end within 0.001 s', 'past the time allowed, the reader is killed');
  const stop = new AbortController();
  const reading = readStoreApart(path, stop.signal, 60_000);
  stop.abort();
  t.equal(await reading, undefined, 'a stop ends the read at once, judging nothing');
});

t.test(
  'lmdb opens the newer commit: its meta page pointing past the end is damage, while the older one fitting is not enough',
  async (t) => {
    const bytes = readFileSync(await usedStore(testDir(t)));
    // Each meta page: a 24-byte page header, then the meta (page size at 24, last page at 120, txn id at 128).
    const pageSize = bytes.readUInt32LE(24 + 24);
    const pages = BigInt(Math.floor(bytes.length / pageSize));
    /** The file's bytes with meta page `newer` one commit ahead, `far` pointing 100 pages past the end, the other at the last page. */
    const metas = (newer: 0 | 1, far: 0 | 1) => {
      const copy = Buffer.from(bytes);
      for (const which of [0, 1] as const) {
        const meta = which * pageSize + 24;
        copy.writeBigUInt64LE(which === far ? pages + 100n : pages - 1n, meta + 120);
        copy.writeBigUInt64LE(which === newer ? 1001n : 1000n, meta + 128);
      }
      return copy;
    };
    for (const newer of [0, 1] as const) {
      t.match(
        storeFileProblem(bytes.length, metas(newer, newer)),
        /^it is cut short: \d+ bytes where its last commit needs \d+$/,
        `meta ${newer} newer and past the end`,
      );
      t.equal(
        storeFileProblem(bytes.length, metas(newer, newer === 0 ? 1 : 0)),
        undefined,
        `meta ${newer} newer and whole: the older one is not opened`,
      );
    }
  },
);
