import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';

/**
 * Run as its own process by `readStoreApart`: does to a copy of the store at `argv[2]` what a start
 * and the service's life do (open it for writing, read every entry of both databases and write it back),
 * so that the store itself is never written. Exit 0: all of it worked; an error is one line on
 * stderr and exit 1; damage lmdb trusts ends it by a signal, or not at all (spinning).
 */
const path = process.argv[2];
const dir = mkdtempSync(join(tmpdir(), 'emotion-hub-store-check-'));
try {
  if (path === undefined) throw new Error('no store path given');
  const copy = join(dir, 'store.db');
  copyFileSync(path, copy);
  const env = open({ path: copy, maxDbs: 2, noSync: true });
  const mood = env.openDB<string, string>({ name: 'mood', encoding: 'string' });
  const conversations = env.openDB({ name: 'conversations' });
  // Every entry read, then written back: the service reads them all at its start and rewrites or removes any later.
  // A damaged branch page hides entries from a read (and crashes a later write): the count each
  // database keeps must be the count read.
  env.transactionSync(() => {
    for (const [name, db] of [
      ['mood', mood],
      ['conversations', conversations],
    ] as const) {
      let read = 0;
      for (const { key, value } of db.getRange()) {
        (db as typeof conversations).putSync(key, value);
        read += 1;
      }
      const kept = (db.getStats() as { entryCount: number }).entryCount;
      if (read !== kept) throw new Error(`its ${name} database shows ${read} of the ${kept} entries it holds`);
    }
  });
  await env.close();
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
