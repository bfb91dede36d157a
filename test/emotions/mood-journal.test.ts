import t from 'tap';
import { EMOTION_NAMES, type Emotions, type MoodChange } from '../../src/emotions/emotions.js';
import { DEFAULT_EMOTIONS } from '../../src/emotions/model.js';
import { MOOD_JOURNAL_LENGTH, explain, moodTotals, recordChange, startJournal, type MoodStep } from '../../src/emotions/mood-journal.js';
import { foldMoodChange, defaultState } from '../../src/emotions/state.js';
import { seededRandom } from '../../src/runtime/random.js';
import { driftDeltas } from '../../src/emotions/model.js';

const NEUTRAL = { sentiment: 'neutral', positive: 0, negative: 0 } as const;

function sumUp(from: Emotions, deltas: readonly Emotions[]): Emotions {
  return Object.fromEntries(EMOTION_NAMES.map((name) => [name, deltas.reduce((sum, delta) => sum + delta[name], from[name])])) as Emotions;
}

t.test('from plus the deltas is the mood, over more changes than the journal keeps', (t) => {
  const random = seededRandom(7);
  let state = defaultState('2026-11-26T00:00:00.000Z');
  let journal = startJournal(state.emotions);
  t.same(explain(journal), { from: DEFAULT_EMOTIONS, changes: [], emotions: DEFAULT_EMOTIONS });
  for (let i = 0; i < 120; i++) {
    const at = new Date(Date.UTC(2026, 10, 26, 0, 0, i)).toISOString();
    const change: MoodChange =
      i % 3 === 0
        ? { kind: 'drift', deltas: driftDeltas(random), at }
        : {
            kind: 'chat',
            correlationId: String(i),
            sentiment: NEUTRAL,
            appraisal: { emotions: { joy: 0.1, sadness: 0.1, anger: 0.6, fear: 0.1, curiosity: 0 }, neutral: 0.1, strongest: 'anger' },
            at,
          };
    state = foldMoodChange(state, change);
    journal = recordChange(journal, change, state.emotions);
  }
  const { from, changes, emotions } = explain(journal);
  t.equal(changes.length, MOOD_JOURNAL_LENGTH);
  t.same(emotions, state.emotions);
  const total = sumUp(
    from,
    changes.map(({ delta }) => delta),
  );
  for (const name of EMOTION_NAMES) t.ok(Math.abs(total[name] - emotions[name]) < 1e-9, `${name}: ${total[name]} vs ${emotions[name]}`);
  t.equal(changes.at(-1)!.at, '2026-11-26T00:01:59.000Z', 'the latest change is last');
  t.same(
    changes.filter(({ kind }) => kind === 'chat').map(({ strongest }) => strongest),
    new Array(changes.filter(({ kind }) => kind === 'chat').length).fill('anger'),
    'a chat says which emotion its message expressed',
  );
  t.notOk('strongest' in changes.find(({ kind }) => kind === 'drift')!, 'a drift has no strongest');
  // The totals by kind add up, to their rounding, to the whole change.
  const totals = moodTotals(changes);
  for (const name of EMOTION_NAMES) {
    const { drift, messages } = totals[name];
    t.ok(Math.abs(drift + messages - (emotions[name] - from[name])) <= 1e-4, `${name}: drift ${drift} + messages ${messages}`);
    for (const sum of [drift, messages]) t.equal(sum, Number(sum.toFixed(4)), `${name}: ${sum} has at most 4 decimals`);
  }
  t.end();
});

t.test('the totals: each emotion’s deltas summed by kind, rounded to 4 places; a snapshot is neither', (t) => {
  const delta = (joy: number, fear = 0) => ({ joy, sadness: 0, anger: 0, fear, curiosity: 0 });
  const steps: MoodStep[] = [
    { at: '2026-11-26T00:00:00.000Z', kind: 'chat', delta: delta(0.123456789, 0.1), strongest: 'joy' },
    { at: '2026-11-26T00:00:10.000Z', kind: 'drift', delta: delta(-0.0300004) },
    { at: '2026-11-26T00:00:20.000Z', kind: 'chat', delta: delta(0.2, -0.05), strongest: 'joy' },
    { at: '2026-11-26T00:00:30.000Z', kind: 'snapshot', delta: delta(0.5, 0.5) },
    { at: '2026-11-26T00:00:40.000Z', kind: 'drift', delta: delta(0.01) },
  ];
  t.same(moodTotals(steps), {
    joy: { drift: -0.02, messages: 0.3235 },
    sadness: { drift: 0, messages: 0 },
    anger: { drift: 0, messages: 0 },
    fear: { drift: 0, messages: 0.05 },
    curiosity: { drift: 0, messages: 0 },
  });
  t.same(moodTotals([]).joy, { drift: 0, messages: 0 }, 'nothing moved it: zeros');
  t.end();
});
