import t from 'tap';
import { decodeMoodEntry, encodeMoodChange, MoodEntryError } from '../../src/redis/mood-entry.js';
import type { MoodChange } from '../../src/mood/mood-ledger.js';

const at = '2026-11-23T09:00:00.000Z';
const chat: MoodChange = { kind: 'chat', correlationId: 'c1', sentiment: { sentiment: 'positive', positive: 0.5, negative: 0 }, at };
const drift: MoodChange = { kind: 'drift', deltas: { joy: 0.1, sadness: -0.1, anger: 0, fear: 0.02, curiosity: -0.3 }, at };
const entry = (seq: string, change: string): [string, string[]] => ['1-0', ['seq', seq, 'change', change]];

t.test('an entry written by encodeMoodChange decodes to the same change', (t) => {
  for (const change of [chat, drift])
    t.same(decodeMoodEntry(entry('1', encodeMoodChange(change))), { position: { id: '1-0', seq: 1 }, change });
  t.end();
});

t.test('an entry the emotion schemas refuse is a MoodEntryError naming it', (t) => {
  const refused = {
    'a score out of 0..1': { ...chat, sentiment: { ...chat.sentiment, positive: 2 } },
    'an unknown label': { ...chat, sentiment: { ...chat.sentiment, sentiment: 'joyful' } },
    'a missing delta': { ...drift, deltas: { joy: 0.1 } },
    'an unknown kind': { ...drift, kind: 'spin' },
    'no time': { kind: 'drift', deltas: drift.kind === 'drift' ? drift.deltas : {} },
    'a delta out of -1..1': { ...drift, deltas: { joy: 2, sadness: 0, anger: 0, fear: 0, curiosity: 0 } },
    'a snapshot, which is never an entry': { kind: 'snapshot', at, state: {} },
  };
  for (const [what, change] of Object.entries(refused)) {
    t.throws(
      () => decodeMoodEntry(entry('1', JSON.stringify(change))),
      new MoodEntryError('mood stream entry 1-0 is not a mood change this version can apply'),
      what,
    );
  }
  t.throws(() => decodeMoodEntry(entry('0', encodeMoodChange(chat))), MoodEntryError, 'numbering starts at 1');
  t.throws(() => decodeMoodEntry(entry('1', '{not json')), MoodEntryError, 'not JSON');
  t.end();
});
