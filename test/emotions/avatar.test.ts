import t from 'tap';
import { chooseShape, energyOf, weightOf } from '../../src/emotions/avatar.js';
import type { AvatarShape, Emotions } from '../../src/emotions/emotions.js';
import { analyzeSentiment } from '../../src/emotions/sentiment.js';
import { defaultState, foldMoodChange, type EmotionState } from '../../src/emotions/state.js';
import { seededRandom } from '../../src/runtime/random.js';
import { driftDeltas } from '../../src/emotions/model.js';
import { mood } from '../support/moods.js';

const START = '2026-01-01T00:00:00.000Z';

t.test('the shape rule, as a table (energy = max of joy, anger, curiosity; weight = max of sadness, fear)', (t) => {
  const table: [Emotions, AvatarShape, AvatarShape, string][] = [
    [mood(0.5, 0.2, 0.1, 0.1, 0.5), 'Circle', 'Circle', 'the default mood is neutral'],
    [mood(0.69, 0.2, 0.1, 0.1, 0.3), 'Circle', 'Circle', 'not quite lively'],
    [mood(0.7, 0.2, 0.1, 0.1, 0.3), 'Circle', 'Triangle', 'joy at 0.7: lively'],
    [mood(0.1, 0.2, 0.1, 0.1, 0.85), 'Square', 'Triangle', 'curiosity reaches out'],
    [mood(0.1, 0.3, 0.8, 0.1, 0.2), 'Circle', 'Triangle', 'anger without much sadness is active'],
    [mood(0.7, 0.7, 0.1, 0.1, 0.3), 'Circle', 'Square', 'joy and sadness tied at 0.7: the weight holds it down, not lively'],
    [mood(0.65, 0.2, 0.1, 0.1, 0.3), 'Triangle', 'Triangle', 'hysteresis: stays until below 0.6'],
    [mood(0.62, 0.2, 0.1, 0.1, 0.3), 'Triangle', 'Triangle', 'still at 0.62'],
    [mood(0.6, 0.2, 0.1, 0.1, 0.3), 'Triangle', 'Triangle', 'and at 0.6 exactly: it holds while energy ≥ 0.6'],
    [mood(0.59, 0.2, 0.1, 0.1, 0.3), 'Triangle', 'Circle', 'below 0.6 the Triangle goes'],
    [mood(0.75, 0.8, 0.1, 0.1, 0.3), 'Triangle', 'Triangle', 'a little more sadness than joy is not yet enough'],
    [mood(0.75, 0.86, 0.1, 0.1, 0.3), 'Triangle', 'Square', 'sadness well ahead of joy'],
    [mood(0.1, 0.83, 0.79, 0.1, 0.2), 'Circle', 'Square', 'sadness with anger is heavy, not lively'],
    [mood(0.2, 0.3, 0.1, 0.75, 0.3), 'Circle', 'Square', 'fear holds it down'],
    [mood(0.4, 0.59, 0.1, 0.1, 0.3), 'Circle', 'Circle', 'sadness below 0.6: not yet'],
    [mood(0.4, 0.55, 0.1, 0.1, 0.3), 'Square', 'Square', 'hysteresis: a Square stays until sadness is below 0.5'],
    [mood(0.4, 0.49, 0.1, 0.1, 0.3), 'Square', 'Circle', 'then it goes'],
    [mood(0.2, 0.2, 0.1, 0.1, 0.25), 'Circle', 'Square', 'nothing stirs: still'],
    [mood(0.3, 0.2, 0.1, 0.1, 0.25), 'Square', 'Square', 'still until energy rises above 0.35'],
    [mood(0.36, 0.2, 0.1, 0.1, 0.25), 'Square', 'Circle', 'stirring again'],
  ];
  for (const [emotions, previous, expected, why] of table) {
    t.equal(chooseShape(emotions, previous), expected, `${why}: ${JSON.stringify(emotions)} after ${previous}`);
  }
  t.end();
});

t.test('energy is the strongest active emotion, weight the strongest withdrawing one', (t) => {
  t.equal(energyOf(mood(0.1, 0.9, 0.3, 0.2, 0.25)), 0.3);
  t.equal(weightOf(mood(0.1, 0.4, 0.3, 0.7, 0.25)), 0.7);
  t.end();
});

t.test('no flicker: small oscillations around a threshold keep the shape', (t) => {
  let shape: AvatarShape = 'Circle';
  const seen = new Set<AvatarShape>();
  for (const joy of [0.71, 0.69, 0.7, 0.68, 0.72, 0.66, 0.7]) {
    shape = chooseShape(mood(joy, 0.2, 0.1, 0.1, 0.3), shape);
    seen.add(shape);
  }
  t.same([...seen], ['Triangle']);
  t.end();
});

t.test('a drift that takes a Triangle from energy 0.72 to 0.65 keeps it through the fold, as it would the shape rule', (t) => {
  const lively: EmotionState = { ...defaultState(START), emotions: mood(0.72, 0.2, 0.1, 0.1, 0.3), avatarShape: 'Triangle' };
  const deltas = { joy: -0.07, sadness: 0, anger: 0, fear: 0, curiosity: 0 };
  const after = foldMoodChange(lively, { kind: 'drift', deltas, at: '2026-01-01T00:00:10.000Z' });
  t.ok(Math.abs(after.emotions.joy - 0.65) < 1e-9, `joy drifted to ${after.emotions.joy}`);
  t.equal(after.avatarShape, 'Triangle', 'still a Triangle: 0.65 is above the 0.6 it leaves at');
  const fromCircle = foldMoodChange({ ...lively, avatarShape: 'Circle' }, { kind: 'drift', deltas, at: '2026-01-01T00:00:10.000Z' });
  t.equal(fromCircle.avatarShape, 'Circle', 'the same mood from a Circle is no Triangle: the shape before decides');
  t.end();
});

// The rule must reach every shape from moods a running service can get to: chats (the real sentiment
// analysis) and drift ticks folded from the default state, exactly as the emotions actor folds them.
t.test('chats and drift, folded from the default mood, reach all three shapes', (t) => {
  let state: EmotionState = defaultState('2026-01-01T00:00:00.000Z');
  let n = 0;
  const at = () => new Date(Date.UTC(2026, 0, 1, 0, 0, n++)).toISOString();
  const chat = (text: string) => {
    state = foldMoodChange(state, { kind: 'chat', correlationId: `c${n}`, sentiment: analyzeSentiment(text).sentiment, at: at() });
  };
  const random = seededRandom(21);
  const drift = () => {
    state = foldMoodChange(state, { kind: 'drift', deltas: driftDeltas(random), at: at() });
  };

  t.equal(state.avatarShape, 'Circle', 'a fresh service is a Circle');

  for (let i = 0; i < 6 && state.avatarShape !== 'Triangle'; i++) chat('I love this, what a wonderful happy day!');
  t.equal(state.avatarShape, 'Triangle', `glowing messages make it lively: ${JSON.stringify(state.emotions)}`);

  for (let i = 0; i < 20 && state.avatarShape !== 'Square'; i++) {
    chat('This is awful, I feel sad and miserable and hurt.');
    drift();
  }
  t.equal(state.avatarShape, 'Square', `a run of sad messages holds it down: ${JSON.stringify(state.emotions)}`);
  t.ok(state.emotions.sadness > state.emotions.anger, 'sadness leads');

  for (let i = 0; i < 20 && state.avatarShape !== 'Circle'; i++) {
    chat('ok, tell me about the weather');
    drift();
  }
  t.equal(state.avatarShape, 'Circle', `neutral talk brings it back to the middle: ${JSON.stringify(state.emotions)}`);
  t.end();
});
