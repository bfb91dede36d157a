import { copyFileSync, existsSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { embeddedStorePath } from '../../src/embedded/embedded-store.js';
import { eventually } from '../../testkit/eventually.js';
import { serve, settledOver } from '../support/served-cli.js';
import { testDir } from '../support/test-dir.js';

// Issue 32: a damaged store beside emotions.json used to make `hub serve` listen, then spin or
// crash with no word. It must end the start with status 1 and a line naming the file and what to do.

/** The built `hub serve`, started once without a key, so that it creates a store; stopped again. */
async function storeOnce(dir: string): Promise<string> {
  const emotionsFile = join(dir, 'emotions.json');
  const run = serve(t, { EMOTIONS_FILE: emotionsFile });
  await settledOver(await run.listening);
  run.kill('SIGTERM');
  t.equal(await run.exited, 0, 'the first start stops cleanly');
  const store = embeddedStorePath(emotionsFile);
  t.ok(existsSync(store), 'it left a store');
  return store;
}

const flat = (text: string): string => text.replace(/[\s›]+/g, '');

const DAMAGES: Record<string, (file: string) => void> = {
  'truncated to half': (file) => truncateSync(file, Math.floor(readFileSync(file).length / 2)),
  'random bytes over its first 4 KiB': (file) => {
    const bytes = readFileSync(file);
    for (let i = 0; i < 4096; i += 1) bytes[i] = (i * 131 + 7) % 251;
    writeFileSync(file, bytes);
  },
  '0 bytes': (file) => truncateSync(file, 0),
  // Past the meta pages, where the probe of the head does not look: lmdb met it only when reading.
  '64 KiB of random bytes at offset 8 KiB': (file) => {
    const bytes = Buffer.alloc(Math.max(readFileSync(file).length, 8192 + 65_536));
    readFileSync(file).copy(bytes);
    let seed = 7;
    for (let i = 8192; i < 8192 + 65_536; i += 1) {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      bytes[i] = (seed >>> 16) & 255;
    }
    writeFileSync(file, bytes);
  },
};

t.test('a damaged store ends `hub serve` (alone and supervised) with status 1, naming the file and what to do', async (t) => {
  const dir = testDir(t);
  const store = await storeOnce(dir);
  const whole = join(dir, 'whole.db');
  copyFileSync(store, whole);
  for (const [damage, apply] of Object.entries(DAMAGES)) {
    for (const args of [[], ['--supervise']]) {
      copyFileSync(whole, store);
      apply(store);
      const damaged = readFileSync(store);
      const startedAt = Date.now();
      const run = serve(t, { EMOTIONS_FILE: join(dir, 'emotions.json') }, args);
      const code = await Promise.race([
        run.exited,
        eventually(`hub serve ${args.join(' ')} to end on a store ${damage}`, () => false, { timeoutMs: 30_000 }),
      ]);
      t.comment(`${damage}, ${args.join(' ') || 'alone'}: ended in ${Date.now() - startedAt} ms`);
      t.ok(readFileSync(store).equals(damaged), 'nothing was written over the damaged store');
      // oclif wraps its error to a width (` ›` continues a line): compared without white space.
      const said = flat(`${run.stderr()}\n${run.lines.map((line) => String(line.msg)).join('\n')}`);
      t.equal(code, 1, `${damage}, ${args.join(' ') || 'alone'}: status 1`);
      t.ok(said.includes(flat(`the conversation store ${store} is damaged`)), 'the file is named');
      t.ok(said.includes(flat('Move it away')), 'and what to do');
    }
  }
});

t.test('SIGTERM during the start (the store read apart) ends `hub serve`, alone and supervised, with a clean stop', async (t) => {
  const dir = testDir(t);
  await storeOnce(dir);
  for (const args of [[], ['--supervise']]) {
    const run = serve(t, { EMOTIONS_FILE: join(dir, 'emotions.json') }, args);
    await run.listening;
    const signalledAt = Date.now();
    run.kill('SIGTERM');
    const code = await run.exited;
    const tookMs = Date.now() - signalledAt;
    t.equal(code, 0, `${args.join(' ') || 'alone'}: a clean stop`);
    t.comment(`${args.join(' ') || 'alone'}: ended ${tookMs} ms after SIGTERM`);
    // Honoured, not ignored (the read once held the start at full CPU): a bound a busy machine keeps;
    // the time itself is a measurement (printed above, docs/robustness.md), not a timed assertion.
    t.ok(tookMs < 15_000, `${args.join(' ') || 'alone'}: ended, not held (${tookMs} ms)`);
  }
});
