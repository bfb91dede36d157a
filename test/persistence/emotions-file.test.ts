import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FileHandle } from 'node:fs/promises';
import t from 'tap';
import {
  EmotionsFileError,
  loadEmotionsFile,
  parseEmotionsFile,
  removeStaleTempFiles,
  serializeState,
  writeEmotionsFile,
} from '../../src/persistence/emotions-file.js';
import type { EmotionState } from '../../src/emotions/state.js';
import { testDir } from '../support/test-dir.js';

const state: EmotionState = {
  emotions: { joy: 0.123456789, sadness: 0.2, anger: 0, fear: 1, curiosity: 0.5 },
  avatarShape: 'Triangle',
  sentiment: { sentiment: 'positive', positive: 0.4285714285714286, negative: 0 },
  lastUpdated: '2026-11-21T10:00:00.000Z',
};

t.test('a written state loads back exactly, in the documented layout', async (t) => {
  const file = join(testDir(t), 'emotions.json');
  await writeEmotionsFile(file, state);
  t.same(await loadEmotionsFile(file), state);
  t.same(JSON.parse(readFileSync(file, 'utf8')), {
    version: 1,
    emotions: state.emotions,
    avatar: { shape: 'Triangle', sentiment: state.sentiment, lastUpdated: state.lastUpdated },
  });
  t.equal(readFileSync(file, 'utf8'), serializeState(state));
  t.same(readdirSync(join(file, '..')), ['emotions.json'], 'no temporary file is left behind');
});

t.test('a missing file is no state, not an error', async (t) => {
  t.equal(await loadEmotionsFile(join(testDir(t), 'absent.json')), undefined);
});

t.test('a corrupt file is an error naming the file, and stays untouched', async (t) => {
  const dir = testDir(t, { 'emotions.json': '{"version": 1, "emotions": ' });
  const file = join(dir, 'emotions.json');
  const error = await loadEmotionsFile(file).catch((e: unknown) => e);
  t.type(error, EmotionsFileError);
  t.match((error as Error).message, file);
  t.match((error as Error).message, /not valid JSON/);
  t.equal(readFileSync(file, 'utf8'), '{"version": 1, "emotions": ');
});

t.test('layout problems are named', (t) => {
  const good = JSON.parse(serializeState(state)) as Record<string, unknown>;
  const cases: [unknown, RegExp][] = [
    [[], /not a JSON object/],
    [{ ...good, version: 2 }, /unsupported version 2/],
    [{ ...good, emotions: null }, /"emotions" must be an object/],
    [{ ...good, avatar: 'x' }, /"avatar" must be an object/],
    [{ ...good, emotions: { ...state.emotions, joy: 1.5 } }, /"emotions.joy" must be a number from 0 to 1/],
    [{ ...good, emotions: { ...state.emotions, fear: '0.1' } }, /"emotions.fear"/],
    [{ ...good, avatar: { ...(good.avatar as object), shape: 'Star' } }, /"avatar.shape" must be one of Circle, Triangle, Square/],
    [{ ...good, avatar: { ...(good.avatar as object), sentiment: 1 } }, /"avatar.sentiment" must be an object/],
    [{ ...good, avatar: { ...(good.avatar as object), lastUpdated: 'yesterday' } }, /"avatar.lastUpdated"/],
  ];
  for (const [value, pattern] of cases) {
    t.throws(() => parseEmotionsFile('e.json', JSON.stringify(value)), pattern);
  }
  t.end();
});

t.test('an unreadable file is an error naming the file', async (t) => {
  const dir = testDir(t, { 'emotions.json': { nested: 'a directory, not a file' } });
  await t.rejects(loadEmotionsFile(join(dir, 'emotions.json')), { name: 'EmotionsFileError', message: /cannot be read/ });
});

t.test('a failed write leaves the old file and no temporary file', async (t) => {
  // A read-only directory refuses the temporary file; root ignores directory permissions (CI runs as
  // root), so the refusal comes from a mocked fs, the same for every user.
  const fs = await import('node:fs/promises');
  const readOnly = () => Promise.reject(Object.assign(new Error('EACCES: permission denied, open'), { code: 'EACCES' }));
  const dir = testDir(t, { 'emotions.json': 'old' });
  await t.rejects(writeEmotionsFile(join(dir, 'emotions.json'), state, { ...fs, open: readOnly }), { code: 'EACCES' });
  t.equal(readFileSync(join(dir, 'emotions.json'), 'utf8'), 'old');
  t.same(readdirSync(dir), ['emotions.json']);
  await t.rejects(writeEmotionsFile(join(testDir(t), 'missing-dir', 'emotions.json'), state), { code: 'ENOENT' });
});

t.test('the emotions file is synced before the rename', async (t) => {
  // Without the sync, a power loss after the rename can leave an empty or partial file under the
  // final name: the rename is durable before the data is.
  const fs = await import('node:fs/promises');
  const calls: string[] = [];
  const open = async (...args: Parameters<typeof fs.open>) => {
    const handle = await fs.open(...args);
    return Object.assign(Object.create(handle) as FileHandle, {
      writeFile: (...rest: Parameters<FileHandle['writeFile']>) => (calls.push('write'), handle.writeFile(...rest)),
      sync: () => (calls.push('sync'), handle.sync()),
      datasync: () => (calls.push('sync'), handle.datasync()),
      close: () => (calls.push('close'), handle.close()),
    });
  };
  const rename = (...args: Parameters<typeof fs.rename>) => (calls.push('rename'), fs.rename(...args));
  const file = join(testDir(t), 'emotions.json');
  await writeEmotionsFile(file, state, { ...fs, open, rename });
  t.same(calls, ['write', 'sync', 'close', 'rename'], 'written, synced and closed, then renamed');
  t.same(await loadEmotionsFile(file), state);
});

t.test('a rename failure cleans the temporary file up', async (t) => {
  const dir = testDir(t, { 'emotions.json': { occupied: 'x' } });
  await t.rejects(writeEmotionsFile(join(dir, 'emotions.json'), state));
  t.same(readdirSync(dir), ['emotions.json']);
  writeFileSync(join(dir, 'other'), '');
});

t.test("a killed run's temporary files are removed before the next one writes; the file and others stay", async (t) => {
  const dir = testDir(t, {
    'emotions.json': serializeState(state),
    'emotions.json.tmp-99999999-0a1b2c3d': '{ "version": 1, "emo',
    'emotions.json.tmp-1-ffffffff': '',
    [`emotions.json.tmp-${process.pid}-00000000`]: 'being written by this process',
    'other.json.tmp-1-00000000': 'not ours',
  });
  const removed = await removeStaleTempFiles(join(dir, 'emotions.json'));
  t.same(removed.sort(), ['emotions.json.tmp-1-ffffffff', 'emotions.json.tmp-99999999-0a1b2c3d']);
  t.same(readdirSync(dir).sort(), ['emotions.json', `emotions.json.tmp-${process.pid}-00000000`, 'other.json.tmp-1-00000000']);
  t.same(await loadEmotionsFile(join(dir, 'emotions.json')), state);
  t.same(await removeStaleTempFiles(join(dir, 'missing', 'emotions.json')), [], 'a missing folder has nothing to remove');
});

/**
 * The write with `open` replaced: every handle it opens writes the first `bytes` bytes of what it is
 * given, then either fails as a full disk does or stalls until `release` is called and writes the rest.
 */
async function withInterruptedWrites(bytes: number, mode: 'fail' | 'stall') {
  const fs = await import('node:fs/promises');
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  let stalled: () => void = () => undefined;
  const reachedStall = new Promise<void>((resolve) => (stalled = resolve));
  const open = async (...args: Parameters<typeof fs.open>) => {
    const handle = await fs.open(...args);
    return Object.assign(Object.create(handle) as FileHandle, {
      writeFile: async (data: string) => {
        await handle.write(Buffer.from(data).subarray(0, bytes));
        if (mode === 'stall') {
          stalled();
          await released;
          await handle.write(Buffer.from(data).subarray(bytes));
          return;
        }
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      },
      sync: () => handle.sync(),
      close: () => handle.close(),
    });
  };
  return { writeEmotionsFile: (file: string, next: EmotionState) => writeEmotionsFile(file, next, { ...fs, open }), release, reachedStall };
}

const previous: EmotionState = {
  ...state,
  emotions: { joy: 0.9, sadness: 0.1, anger: 0.1, fear: 0.1, curiosity: 0.9 },
  avatarShape: 'Circle',
};

t.test('a write that fails partway leaves the previous file whole, and no temporary file', async (t) => {
  const dir = testDir(t, { 'emotions.json': serializeState(previous) });
  const file = join(dir, 'emotions.json');
  const { writeEmotionsFile } = await withInterruptedWrites(40, 'fail');
  await t.rejects(writeEmotionsFile(file, state), { code: 'ENOSPC' });
  t.equal(readFileSync(file, 'utf8'), serializeState(previous), 'the previous file, byte for byte');
  t.same(await loadEmotionsFile(file), previous, 'and it still loads');
  t.same(readdirSync(dir), ['emotions.json'], 'the partial temporary file is removed');
});

t.test('while a write is stalled partway, the file on disk is the previous one, whole', async (t) => {
  const dir = testDir(t, { 'emotions.json': serializeState(previous) });
  const file = join(dir, 'emotions.json');
  const { writeEmotionsFile, release, reachedStall } = await withInterruptedWrites(40, 'stall');
  const writing = writeEmotionsFile(file, state);
  await reachedStall;
  t.same(await loadEmotionsFile(file), previous, 'a reader (or a crash) now sees the previous state');
  release();
  await writing;
  t.same(await loadEmotionsFile(file), state, 'once the write completes, the new state');
});
