import t from 'tap';
import { EMOTION_NAMES, type Emotions, type MoodChange } from '../../src/emotions/emotions.js';
import { DEFAULT_EMOTIONS } from '../../src/emotions/model.js';
import { MOOD_JOURNAL_LENGTH, explain, recordChange, startJournal } from '../../src/emotions/mood-journal.js';
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
  t.end();
});
