import t from 'tap';
import type { BusEvent } from '../../src/bus/events.js';
import { applyDrift, DEFAULT_EMOTIONS, processMessage, processSentimentMessage } from '../../src/emotions/model.js';
import { foldEvent } from '../../src/replay/fold-event.js';
import { defaultState, foldMoodChange } from '../../src/emotions/state.js';

const at = '2026-11-21T10:00:00.000Z';
const positive = { sentiment: 'positive', positive: 1, negative: 0 } as const;

t.test('emotions.loaded starts over from the loaded state', (t) => {
  const loaded: BusEvent = {
    type: 'emotions.loaded',
    at,
    emotions: { joy: 0.9, sadness: 0, anger: 0, fear: 0, curiosity: 0.2 },
    avatarShape: 'Triangle',
    sentiment: positive,
    lastUpdated: '2026-11-20T00:00:00.000Z',
    source: 'file',
  };
  t.same(foldEvent(defaultState(at), loaded), {
    emotions: loaded.emotions,
    avatarShape: 'Triangle',
    sentiment: positive,
    lastUpdated: '2026-11-20T00:00:00.000Z',
  });
  t.end();
});

t.test('an old log: a committed chat and a drift tick change the emotions, the shape and last updated', (t) => {
  const start = defaultState('2026-01-01T00:00:00.000Z');
  const analyzed = foldEvent(start, { type: 'chat.committed', at, correlationId: 'c', sentiment: positive });
  t.same(analyzed.emotions, processSentimentMessage(DEFAULT_EMOTIONS, positive));
  t.same(analyzed.sentiment, positive);
  t.equal(analyzed.lastUpdated, at);
  t.equal(analyzed.avatarShape, 'Triangle', 'joy passes the Triangle threshold');
  const deltas = { joy: -0.05, sadness: 0.05, anger: 0, fear: 0, curiosity: 0.01 };
  const drifted = foldEvent(analyzed, { type: 'emotions.drifted', at: '2026-11-21T10:00:10.000Z', deltas });
  t.same(drifted.emotions, applyDrift(analyzed.emotions, deltas));
  t.equal(drifted.lastUpdated, '2026-11-21T10:00:10.000Z');
  t.same(drifted.sentiment, positive, 'drift keeps the last sentiment');
  t.equal(foldEvent(drifted, { type: 'status.requested', at, correlationId: 'x' }), drifted, 'other events change nothing');
  t.end();
});

t.test('a message analysed but never committed (its chat failed) changes nothing', (t) => {
  const start = defaultState('2026-01-01T00:00:00.000Z');
  t.equal(
    foldEvent(start, { type: 'sentiment.analyzed', at, correlationId: 'c', sentiment: positive, score: 9, preview: DEFAULT_EMOTIONS }),
    start,
  );
  t.equal(
    foldEvent(start, { type: 'emotions.previewed', at, correlationId: 'c', emotions: processSentimentMessage(DEFAULT_EMOTIONS, positive) }),
    start,
  );
  t.end();
});

t.test('a ledger change folds as its event does: a chat decays then applies its appraisal, a drift adds its deltas', (t) => {
  const start = defaultState('2026-11-23T09:00:00.000Z');
  const sentiment = { sentiment: 'negative', positive: 0, negative: 0.6 } as const;
  const appraisal = {
    emotions: { joy: 0.02, sadness: 0.03, anger: 0.05, fear: 0.85, curiosity: 0.01 },
    neutral: 0.04,
    strongest: 'fear',
  } as const;
  const chat = foldMoodChange(start, { kind: 'chat', correlationId: 'c', sentiment, appraisal, at: '2026-11-23T09:00:01.000Z' });
  t.same(chat.emotions, processMessage(start.emotions, appraisal));
  t.ok(
    chat.emotions.fear > start.emotions.fear && chat.emotions.sadness < start.emotions.sadness,
    'the appraisal moves it, not the sentiment',
  );
  const before = foldMoodChange(start, { kind: 'chat', correlationId: 'c', sentiment, at: '2026-11-23T09:00:01.000Z' });
  t.same(
    before.emotions,
    processSentimentMessage(start.emotions, sentiment),
    'a chat committed before the appraisal folds by its sentiment',
  );
  t.same([chat.sentiment, chat.lastUpdated], [sentiment, '2026-11-23T09:00:01.000Z']);
  const deltas = { joy: -0.05, sadness: 0.05, anger: 0, fear: 0.01, curiosity: -0.02 };
  const drift = foldMoodChange(chat, { kind: 'drift', deltas, at: '2026-11-23T09:00:10.000Z' });
  t.same(drift.emotions, applyDrift(chat.emotions, deltas));
  t.same(drift.sentiment, sentiment, 'a drift keeps the last message’s sentiment');
  t.same(drift, foldEvent(chat, { type: 'emotions.drifted', deltas, at: '2026-11-23T09:00:10.000Z' }));
  t.end();
});

t.test('mood.changed is taken as it is: the state after its change, as the mood owner folded it', (t) => {
  const start = defaultState('2026-11-23T09:00:00.000Z');
  const change = { kind: 'chat', correlationId: 'c', sentiment: positive, at } as const;
  // A state no fold of `change` gives: the replay must not recompute it.
  const after = {
    emotions: { joy: 0.1, sadness: 0.2, anger: 0.3, fear: 0.4, curiosity: 0.5 },
    avatarShape: 'Square',
    sentiment: positive,
    lastUpdated: at,
  } as const;
  t.same(foldEvent(start, { type: 'mood.changed', at, change, ...after }), after);
  t.end();
});

t.test('a snapshot change is the state it carries', (t) => {
  const start = defaultState('2026-11-23T09:00:00.000Z');
  const state = { ...defaultState('2026-11-23T08:00:00.000Z'), avatarShape: 'Square' } as const;
  t.equal(foldMoodChange(start, { kind: 'snapshot', state, at }), state);
  t.end();
});
