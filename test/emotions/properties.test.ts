import fc from 'fast-check';
import t from 'tap';
import type { BusEvent } from '../../src/bus/events.js';
import { AVATAR_SHAPES, EMOTION_NAMES } from '../../src/emotions/emotions.js';
import { foldEvent } from '../../src/actors/fold-event.js';
import { defaultState } from '../../src/emotions/state.js';

const unit = fc.double({ min: 0, max: 1, noNaN: true });
const at = fc.date({ min: new Date('2026-01-01'), max: new Date('2027-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
const analyzed = fc.record({
  type: fc.constant('sentiment.analyzed' as const),
  at,
  correlationId: fc.uuid(),
  sentiment: fc.record({
    sentiment: fc.constantFrom('positive' as const, 'negative' as const, 'neutral' as const),
    positive: unit,
    negative: unit,
  }),
  score: fc.integer({ min: -20, max: 20 }),
});
const delta = fc.double({ min: -0.05, max: 0.05, noNaN: true });
const drifted = fc.record({
  type: fc.constant('emotions.drifted' as const),
  at,
  deltas: fc.record({ joy: delta, sadness: delta, anger: delta, fear: delta, curiosity: delta }),
});

t.test('any sequence of messages and drift ticks keeps every value in 0..1 and a valid shape', (t) => {
  fc.assert(
    fc.property(fc.array(fc.oneof(analyzed, drifted), { maxLength: 300 }), (events) => {
      const state = (events as BusEvent[]).reduce(foldEvent, defaultState('2026-01-01T00:00:00.000Z'));
      return (
        EMOTION_NAMES.every((name) => state.emotions[name] >= 0 && state.emotions[name] <= 1) && AVATAR_SHAPES.includes(state.avatarShape)
      );
    }),
  );
  t.pass('held for every generated sequence');
  t.end();
});
