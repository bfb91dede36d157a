import t from 'tap';
import { APPRAISAL_LABELS, MAX_CUES, appraise, topLabel } from '../../src/appraisal/appraisal.js';
import { roundAppraisal } from '../../src/emotions/model.js';
import { loadShippedModel } from '../../src/appraisal/shipped-model.js';
import { EMOTION_NAMES, type EmotionName } from '../../src/emotions/emotions.js';

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
