import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { createActor, toPromise } from 'xstate';
import { loadMemoryStore } from '../../src/actors/startup.js';
import { defaultState, foldMoodChange, type EmotionState } from '../../src/emotions/state.js';
import type { HeldState } from '../../src/mood-ledger/mood-ledger.js';
import { parseEmotionsFile, serializeState, writeEmotionsFile } from '../../src/persistence/emotions-file.js';
import { testDir } from '../support/test-dir.js';

// Stage 1's memory store: one lasting copy of the mood per mode. A ledger that holds the mood is
// the state the run starts from, and the emotions file is only ever written from it; the file is
// read only when no ledger holds a state.

const NOW = '2026-11-26T08:00:00.000Z';
const OLDER = defaultState('2026-11-20T08:00:00.000Z');
const STORED = foldMoodChange(OLDER, {
  kind: 'drift',
  deltas: { joy: 0.2, sadness: 0, anger: 0.1, fear: 0, curiosity: 0 },
  at: '2026-11-21T08:00:00.000Z',
});

/** Runs the memory store over `file` with a ledger holding `held`; resolves with its answer and what the ledger was told. */
async function load(file: string, held?: HeldState) {
  const told: EmotionState[] = [];
  const ledger = { held, startFrom: (state: EmotionState) => void told.push(state) };
  const store = await toPromise(createActor(loadMemoryStore, { input: { file, now: NOW, ledger } }).start());
  return { store, told };
}

const fileState = (file: string) => parseEmotionsFile(file, readFileSync(file, 'utf8'));

t.test("the embedded store's state is the start, and the file is rewritten from it, whatever the file says", async (t) => {
  const file = join(testDir(t), 'emotions.json');
  // A file newer than the store, edited by hand while the service was stopped: still not a second truth.
  const edited = { ...OLDER, lastUpdated: '2026-11-25T08:00:00.000Z' };
  await writeEmotionsFile(file, edited);
  const { store, told } = await load(file, { state: STORED, where: 'store' });
  t.same(store, { state: STORED, source: 'store' });
  t.same(told, [STORED], 'the ledger starts from its own copy');
  t.same(fileState(file), STORED, 'the file shows the store');
});

t.test('a corrupt file beside a store that holds the mood is replaced by the view, not a failed start', async (t) => {
  const file = join(testDir(t), 'emotions.json');
  writeFileSync(file, '{ not json');
  const { store } = await load(file, { state: STORED, where: 'store' });
  t.equal(store.source, 'store');
  t.equal(readFileSync(file, 'utf8'), serializeState(STORED));
});

t.test("a replica starts from the replicas' shared state and leaves its file to the changes", async (t) => {
  const file = join(testDir(t), 'no-such-folder', 'emotions.json');
  const { store, told } = await load(file, { state: STORED, where: 'shared' });
  t.same(store, { state: STORED, source: 'shared' });
  t.same(told, [STORED]);
  t.notOk(existsSync(file), 'nothing written, no folder needed');
});

t.test('with no held state the file is read, or the defaults used, and the ledger starts from it', async (t) => {
  const dir = testDir(t);
  const file = join(dir, 'emotions.json');
  await writeEmotionsFile(file, STORED);
  const fromFile = await load(file);
  t.same(fromFile.store, { state: STORED, source: 'file' });
  t.same(fromFile.told, [STORED]);
  const fresh = await load(join(dir, 'first.json'));
  t.same(fresh.store, { state: defaultState(NOW), source: 'defaults' });
  t.same(fresh.told, [defaultState(NOW)]);
});

t.test('with no held state a corrupt file fails the start and is left untouched', async (t) => {
  const file = join(testDir(t), 'emotions.json');
  writeFileSync(file, '{ not json');
  await t.rejects(load(file), /emotions\.json/);
  t.equal(readFileSync(file, 'utf8'), '{ not json');
});
