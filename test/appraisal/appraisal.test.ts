import t from 'tap';
import { ALSO_MIN, ALSO_SHARE, APPRAISAL_LABELS, MAX_CUES, appraise, topLabel } from '../../src/appraisal/appraisal.js';
import { MAX_RUN, cutLongRuns, mayCue, readTokens } from '../../src/appraisal/features.js';
import { MODEL_FORMAT, WEIGHT_SCALE, modelFromFile, packWeights, type ModelFile } from '../../src/appraisal/model-file.js';
import { roundAppraisal } from '../../src/emotions/model.js';
import { loadShippedModel } from '../../src/appraisal/shipped-model.js';
import { EMOTION_NAMES, type EmotionName } from '../../src/emotions/emotions.js';
import { worstCaseMessages } from '../../testkit/worst-messages.js';

// Messages of the kind people type to an assistant (not GoEmotions' Reddit comments), written here.
const CLEAR: Record<EmotionName, readonly string[]> = {
  joy: ['I am so happy today!', 'Thank you so much, this is wonderful', 'I love it, best day ever'],
  sadness: ['I feel so sad and lonely', 'I miss my mom so much', "I'm heartbroken and I can't stop crying"],
  anger: ['I am furious!', 'I hate this, it is outrageous', 'This is so annoying, stop it'],
  fear: ['I am terrified', "I'm so scared of the dark", "I'm worried and nervous about my exam"],
  curiosity: ['I wonder how black holes form?', 'Can you explain how vaccines work?', 'Wow, I never knew that!'],
};

t.test('messages that clearly express one emotion read as that emotion, with cue words from the message', async (t) => {
  const model = await loadShippedModel();
  for (const emotion of EMOTION_NAMES) {
    for (const text of CLEAR[emotion]) {
      const appraisal = appraise(model, text);
      t.equal(appraisal.strongest, emotion, `"${text}" reads as ${emotion} (${JSON.stringify(appraisal.emotions)})`);
      t.ok(appraisal.cues.length >= 1 && appraisal.cues.length <= MAX_CUES, `"${text}": ${appraisal.cues.length} cues`);
      for (const cue of appraisal.cues) t.ok(text.toLowerCase().includes(cue), `cue "${cue}" is a word of "${text}"`);
    }
  }
  t.same(appraise(model, 'I am furious and I hate this').cues.slice(0, 2).sort(), ['furious', 'hate']);
});

t.test('probabilities of the five emotions and neutral sum to 1; a plain statement reads as neutral', async (t) => {
  const model = await loadShippedModel();
  for (const text of ['The meeting is at 3pm.', 'hello', '', '🙂', 'x'.repeat(4000)]) {
    const { emotions, neutral } = appraise(model, text);
    const sum = EMOTION_NAMES.reduce((total, name) => total + emotions[name], neutral);
    t.ok(Math.abs(sum - 1) < 1e-12, `"${text.slice(0, 20)}" sums to ${sum}`);
  }
  t.equal(topLabel(appraise(model, 'The meeting is at 3pm.')), 'neutral');
  t.equal(APPRAISAL_LABELS.at(-1), 'neutral');
});

t.test('an appraisal is pure: the same text reads the same; rounded to 2 decimals for responses', async (t) => {
  const model = await loadShippedModel();
  const text = 'I am scared but also a little excited';
  t.same(appraise(model, text), appraise(model, text));
  const rounded = roundAppraisal(appraise(model, text));
  for (const value of [...Object.values(rounded.emotions), rounded.neutral]) t.equal(Math.round(value * 100) / 100, value);
  t.equal(rounded.strongest, appraise(model, text).strongest, 'strongest is decided before rounding');
});

/** A model of a few hand-set weights (thousandths, as the file stores them), every other word unknown. */
function handModel(features: Record<string, number[]>, bias = [0, 0, 0, 0, 0, 0], scale = WEIGHT_SCALE) {
  const file: ModelFile = {
    format: MODEL_FORMAT,
    labels: APPRAISAL_LABELS,
    scale,
    bias,
    ...packWeights(features),
    data: '',
    settings: {},
    dev: {} as never,
  };
  return modelFromFile(file);
}

t.test('each label reads as itself: a model that weighs one label reads that one, under its own name', (t) => {
  for (const [k, label] of APPRAISAL_LABELS.entries()) {
    const bias = APPRAISAL_LABELS.map((_, j) => (j === k ? 5000 : 0));
    const appraisal = appraise(handModel({}, bias), 'anything at all');
    const p = label === 'neutral' ? appraisal.neutral : appraisal.emotions[label];
    t.ok(p > 0.95, `${label}: p ${p}`);
    t.equal(appraisal.reading, label);
    if (label !== 'neutral') t.equal(appraisal.strongest, label);
  }
  t.end();
});

t.test('on a tie of the five emotions the strongest is the first, joy', (t) => {
  const appraisal = appraise(handModel({}, [0, 0, 0, 0, 0, -3000]), 'hello');
  t.equal(appraisal.strongest, 'joy');
  t.equal(appraisal.reading, 'joy');
  t.equal(appraisal.also, 'sadness', 'the next on the tie is named beside it');
  t.end();
});

t.test('every word pair is looked up, the last one too', (t) => {
  const model = handModel({ 'so sad': [0, 0, 4000, 0, 0, 0] });
  t.equal(appraise(model, 'I am so sad').strongest, 'anger', 'the last pair of the message');
  t.equal(appraise(model, 'so sad today').strongest, 'anger', 'a pair before the last');
  t.end();
});

t.test('a weights file at another quantisation scale reads the same as the same weights at the usual one', (t) => {
  const usual = handModel({ sad: [0, 3000, 0, 0, 0, 0], lone: [0, 1500, 200, 0, 0, -500] }, [100, 0, 0, 0, 0, 700]);
  const coarse = handModel({ sad: [0, 300, 0, 0, 0, 0], lone: [0, 150, 20, 0, 0, -50] }, [10, 0, 0, 0, 0, 70], 100);
  t.same(appraise(coarse, 'sad and alone, lone'), appraise(usual, 'sad and alone, lone'));
  t.end();
});

t.test('cues come most weight first, whatever their order in the message', async (t) => {
  const model = handModel({ sad: [0, 3000, 0, 0, 0, 0], lone: [0, 2000, 0, 0, 0, 0], miss: [0, 1000, 0, 0, 0, 0] });
  t.same(appraise(model, 'I miss you, lonely and sad').cues, ['sad', 'lonely', 'miss']);
  t.same(appraise(await loadShippedModel(), 'I feel so sad and lonely').cues.slice(0, 2), ['sad', 'lonely']);
});

t.test('cues are words that carry meaning: never a stop word, a number, a number word or punctuation', async (t) => {
  const model = await loadShippedModel();
  t.same(appraise(model, 'I am so happy today!').cues, ['happy']);
  t.notOk(appraise(model, 'why would you do that?').cues.includes('?'));
  // Every word weighs towards anger here: only the ones that mean something may be shown.
  const keys = readTokens('the what about twice 3 ? ! furious').map(({ key }) => key);
  const angry = handModel(Object.fromEntries(keys.map((key) => [key, [0, 0, 3000, 0, 0, 0]])));
  t.same(appraise(angry, 'the furious what about twice 3 ? !').cues, ['furious']);
  for (const text of ['what do you know about the sky', 'They charged me twice, 2 times!!', '???', 'I am, am I?']) {
    for (const cue of appraise(model, text).cues) t.ok(mayCue(cue), `"${text}": cue "${cue}"`);
  }
  t.notOk(mayCue('the'));
  t.notOk(mayCue('twice'));
  t.notOk(mayCue('42'));
  t.notOk(mayCue('?!'));
  t.ok(mayCue('furious'));
  t.ok(mayCue('😡'));
  t.end();
});

t.test('reading is the most probable of the six; also names a second emotion only at a third of it and above 0.15', (t) => {
  // bias logits: joy 2, fear 1 → p(fear)/p(joy) = e⁻¹ ≈ 0.37 ≥ 1/3.
  const two = appraise(handModel({}, [2000, -5000, -5000, 1000, -5000, -5000]), 'x');
  t.equal(two.reading, 'joy');
  t.equal(two.also, 'fear');
  const oneAndAHint = appraise(handModel({}, [2000, -5000, -5000, 800, -5000, -5000]), 'x');
  t.ok(oneAndAHint.emotions.fear < oneAndAHint.emotions.joy / 3, 'fear under a third of joy');
  t.notOk('also' in oneAndAHint);
  // Neutral 0.30, each emotion 0.14: over a third of the reading, but not above 0.15.
  const flat = appraise(handModel({}, [0, 0, 0, 0, 0, 762]), 'x');
  t.equal(flat.reading, 'neutral');
  t.ok(flat.emotions.joy >= flat.neutral * ALSO_SHARE && flat.emotions.joy <= ALSO_MIN, `joy ${flat.emotions.joy}`);
  t.notOk('also' in flat);
  const neutralFirst = appraise(handModel({}, [1000, -5000, -5000, -5000, -5000, 1500]), 'x');
  t.equal(neutralFirst.reading, 'neutral');
  t.equal(neutralFirst.strongest, 'joy');
  t.equal(neutralFirst.also, 'joy', 'beside neutral, the strongest emotion');
  t.equal(ALSO_SHARE, 1 / 3);
  t.end();
});

t.test('reading is linear in the message: a long run is cut before it is tokenized', async (t) => {
  const model = await loadShippedModel();
  for (const [name, text] of Object.entries(worstCaseMessages(4000))) {
    const tokens = readTokens(text);
    t.ok(
      tokens.every(({ word }) => [...word].length <= MAX_RUN),
      `${name}: ${tokens.length} tokens, none longer than ${MAX_RUN}`,
    );
    t.ok([...cutLongRuns(text)].length <= MAX_RUN, `${name}: the run is cut to ${MAX_RUN} code points`);
    // Ten times the text costs about ten times the time; a tokenizer that grows with the run's square would cost a hundred.
    const cost = (input: string) => {
      let best = Number.POSITIVE_INFINITY;
      for (let round = 0; round < 5; round++) {
        const start = performance.now();
        appraise(model, input);
        best = Math.min(best, performance.now() - start);
      }
      return best;
    };
    const spaced = `${text} `.repeat(10);
    const ratio = cost(spaced) / Math.max(cost(`${text} `), 0.05);
    t.ok(ratio < 40, `${name}: 10× the text costs ${ratio.toFixed(1)}× the time`);
  }
  t.same(cutLongRuns(`short words stay ${'x'.repeat(100)} here`), `short words stay ${'x'.repeat(MAX_RUN)} here`);
});
