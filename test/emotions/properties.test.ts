import fc from 'fast-check';
import t from 'tap';
import { AVATAR_SHAPES, EMOTION_NAMES } from '../../src/emotions/emotions.js';
import { defaultState, foldMoodChange, type EmotionState } from '../../src/emotions/state.js';
import type { MoodChange } from '../../src/mood-ledger/mood-ledger.js';

// The changes the mood ledger delivers, the only ones that move the emotions: processed chats
// (decay, then the sentiment) and drift ticks. Chats drive emotions towards a bound (a run of
// positive messages takes sadness near 0), so the drift's next step down would leave 0..1 without
// the clamp.
const unit = fc.double({ min: 0, max: 1, noNaN: true });
const at = fc.date({ min: new Date('2026-01-01'), max: new Date('2027-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
const chat: fc.Arbitrary<MoodChange> = fc.record({
  kind: fc.constant('chat' as const),
  correlationId: fc.uuid(),
  sentiment: fc.oneof(
    fc.record({ sentiment: fc.constant('positive' as const), positive: unit, negative: fc.constant(0) }),
    fc.record({ sentiment: fc.constant('negative' as const), positive: fc.constant(0), negative: unit }),
    fc.record({ sentiment: fc.constant('neutral' as const), positive: unit, negative: unit }),
  ),
  at,
});
const delta = fc.double({ min: -0.05, max: 0.05, noNaN: true });
const drift: fc.Arbitrary<MoodChange> = fc.record({
  kind: fc.constant('drift' as const),
  deltas: fc.record({ joy: delta, sadness: delta, anger: delta, fear: delta, curiosity: delta }),
  at,
});
// Long runs of one kind: many chats of one sentiment, then many drift ticks.
const changes = fc
  .array(fc.oneof(fc.array(chat, { maxLength: 60 }), fc.array(drift, { maxLength: 60 })), { minLength: 1, maxLength: 10 })
  .map((runs) => runs.flat());

const START = defaultState('2026-01-01T00:00:00.000Z');
const inBounds = (state: EmotionState) =>
  EMOTION_NAMES.every((name) => state.emotions[name] >= 0 && state.emotions[name] <= 1) && AVATAR_SHAPES.includes(state.avatarShape);

t.test('any sequence of chats and drift ticks keeps every value in 0..1 and a valid shape', (t) => {
  fc.assert(
    fc.property(changes, (sequence) => inBounds(sequence.reduce(foldMoodChange, START))),
    { numRuns: 300 },
  );
  t.pass('held for every generated sequence');
  t.end();
});

t.test('the generated chats do apply: each one changes the emotions and records its sentiment and time', (t) => {
  fc.assert(
    fc.property(chat, (change) => {
      const after = foldMoodChange(START, change);
      return (
        after.emotions.joy !== START.emotions.joy &&
        after.lastUpdated === change.at &&
        after.sentiment === (change as { sentiment: unknown }).sentiment
      );
    }),
  );
  t.pass('every generated chat moved the state');
  t.end();
});
