import t from 'tap';
import { EMOTION_NAMES, emotionRecord, type EmotionName, type Emotions } from '../../src/emotions/emotions.js';
import {
  APPRAISAL_GAINS,
  DEFAULT_EMOTIONS,
  applyAppraisal,
  applyDrift,
  applySentiment,
  clamp01,
  decay,
  driftDeltas,
  processMessage,
  processSentimentMessage,
  roundEmotions,
  saturate,
} from '../../src/emotions/model.js';
import { analyzeSentiment } from '../../src/emotions/sentiment.js';
import { seededRandom } from '../../src/runtime/random.js';

const neutral = { sentiment: 'neutral', positive: 0, negative: 0 } as const;
const values = (e: Emotions) => Object.values(e);

t.test('decay takes 3 percent off every emotion', (t) => {
  t.same(decay({ joy: 1, sadness: 0.5, anger: 0, fear: 0.2, curiosity: 0.1 }), {
    joy: 0.97,
    sadness: 0.485,
    anger: 0,
    fear: 0.2 * 0.97,
    curiosity: 0.1 * 0.97,
  });
  t.end();
});

const reading = (emotion: EmotionName, p: number, neutral = 0) => {
  const rest = (1 - p - neutral) / 4;
  return { emotions: emotionRecord((name) => (name === emotion ? p : rest)), neutral };
};

t.test('a processed message decays first, then applies its appraisal: the expressed emotion rises most', (t) => {
  for (const emotion of EMOTION_NAMES) {
    const appraisal = reading(emotion, 0.8);
    const after = processMessage(DEFAULT_EMOTIONS, appraisal);
    t.same(after, applyAppraisal(decay(DEFAULT_EMOTIONS), appraisal));
    const rises = EMOTION_NAMES.map((name) => after[name] - DEFAULT_EMOTIONS[name]);
    t.equal(Math.max(...rises), after[emotion] - DEFAULT_EMOTIONS[emotion], `${emotion} rises most`);
    for (const other of EMOTION_NAMES)
      if (other !== emotion) t.ok(after[other] < DEFAULT_EMOTIONS[other], `${other} eases when ${emotion} is expressed`);
  }
  t.end();
});

t.test('the gains: rise·p(emotion) − fall·p(the other four), as a fraction of the way to a bound', (t) => {
  const appraisal = { emotions: { joy: 0.1, sadness: 0.05, anger: 0.6, fear: 0.05, curiosity: 0 }, neutral: 0.2 };
  const after = applyAppraisal(DEFAULT_EMOTIONS, appraisal);
  const gain = (p: number) => APPRAISAL_GAINS.rise * p - APPRAISAL_GAINS.fall * (0.8 - p);
  t.equal(after.anger, saturate(DEFAULT_EMOTIONS.anger, gain(0.6)));
  t.equal(after.joy, saturate(DEFAULT_EMOTIONS.joy, gain(0.1)));
  t.equal(after.curiosity, saturate(DEFAULT_EMOTIONS.curiosity, gain(0)));
  t.end();
});

t.test('a neutral message moves the mood little: less than a tenth of what an emotional one does', (t) => {
  const calm = applyAppraisal(DEFAULT_EMOTIONS, reading('joy', 0.04, 0.9));
  const moved = (e: Emotions) => EMOTION_NAMES.reduce((sum, name) => sum + Math.abs(e[name] - DEFAULT_EMOTIONS[name]), 0);
  t.ok(moved(calm) < 0.1 * moved(applyAppraisal(DEFAULT_EMOTIONS, reading('anger', 0.9))), `moved ${moved(calm)}`);
  t.end();
});

t.test('from the default mood, four clear messages make any emotion the strongest, and never pin it at 1', (t) => {
  for (const emotion of EMOTION_NAMES) {
    let emotions = DEFAULT_EMOTIONS;
    for (let i = 0; i < 4; i++) emotions = processMessage(emotions, reading(emotion, 0.7, 0.1));
    t.equal(
      EMOTION_NAMES.reduce((a, b) => (emotions[b] > emotions[a] ? b : a)),
      emotion,
      `${emotion}: ${JSON.stringify(emotions)}`,
    );
  }
  let emotions = DEFAULT_EMOTIONS;
  for (let i = 0; i < 5000; i++) emotions = processMessage(emotions, reading('fear', 1));
  t.ok(emotions.fear < 1 && roundEmotions(emotions).fear < 1, `fear settles below 1 (${emotions.fear})`);
  t.ok(
    values(emotions).every((v) => v > 0),
    'the others never reach 0',
  );
  t.end();
});

t.test('a chat committed before the appraisal decays first, then applies its sentiment', (t) => {
  const positive = analyzeSentiment('I love this, it is wonderful').sentiment;
  const after = processSentimentMessage(DEFAULT_EMOTIONS, positive);
  t.same(after, applySentiment(decay(DEFAULT_EMOTIONS), positive));
  t.ok(after.joy > DEFAULT_EMOTIONS.joy, 'joy rises with a positive message');
  t.ok(after.sadness < DEFAULT_EMOTIONS.sadness, 'sadness falls');
  const negative = processSentimentMessage(DEFAULT_EMOTIONS, analyzeSentiment('This is awful, I hate it').sentiment);
  t.ok(negative.sadness > DEFAULT_EMOTIONS.sadness && negative.anger > DEFAULT_EMOTIONS.anger, 'sadness and anger rise');
  t.ok(negative.joy < DEFAULT_EMOTIONS.joy, 'joy falls');
  const calm = processSentimentMessage(DEFAULT_EMOTIONS, neutral);
  t.ok(calm.curiosity > DEFAULT_EMOTIONS.curiosity * 0.97, 'a neutral message sparks curiosity');
  t.equal(calm.joy, DEFAULT_EMOTIONS.joy * 0.97, 'and only decays joy');
  t.end();
});

t.test('sentiment rule, steady state: a long run of positive messages approaches but never pins at the bounds', (t) => {
  const glowing = analyzeSentiment('amazing wonderful fantastic love it, best day ever, superb').sentiment;
  let emotions = DEFAULT_EMOTIONS;
  for (let i = 0; i < 5000; i += 1) emotions = processSentimentMessage(emotions, glowing);
  t.ok(emotions.joy > 0.8 && emotions.joy < 1, `joy settles high but below 1 (${emotions.joy})`);
  t.ok(roundEmotions(emotions).joy < 1, 'even rounded');
  t.notOk(
    values(emotions).every((v) => v === 1),
    'not every value is pinned at 1',
  );
  t.ok(values(emotions).every((v) => v >= 0 && v <= 1));
  t.end();
});

t.test('saturating updates stay inside 0..1 for any gain', (t) => {
  t.equal(saturate(0.5, 0.5), 0.75);
  t.equal(saturate(0.5, -0.5), 0.25);
  t.equal(saturate(0.5, 5), 1, 'gains are capped at ±1');
  t.equal(saturate(0.5, -5), 0);
  t.end();
});

t.test('drift adds the carried deltas and clamps to 0..1', (t) => {
  const deltas = { joy: 0.05, sadness: -0.05, anger: 0.01, fear: -0.2, curiosity: 0.9 };
  t.same(applyDrift({ joy: 0.98, sadness: 0.02, anger: 0.5, fear: 0.1, curiosity: 0.5 }, deltas), {
    joy: 1,
    sadness: 0,
    anger: 0.51,
    fear: 0,
    curiosity: 1,
  });
  t.end();
});

t.test('drift deltas come from the injected source, within ±0.05', (t) => {
  const a = driftDeltas(seededRandom(7));
  t.same(a, driftDeltas(seededRandom(7)), 'same seed, same deltas');
  t.ok(values(a).every((d) => Math.abs(d) <= 0.05));
  t.same(
    driftDeltas(() => 0),
    { joy: -0.05, sadness: -0.05, anger: -0.05, fear: -0.05, curiosity: -0.05 },
  );
  t.end();
});

t.test('rounding to 2 decimals and clamping', (t) => {
  t.same(roundEmotions({ joy: 0.123456, sadness: 0.005, anger: 0.999, fear: 0, curiosity: 1 }), {
    joy: 0.12,
    sadness: 0.01,
    anger: 1,
    fear: 0,
    curiosity: 1,
  });
  t.equal(clamp01(Number.NaN), 0);
  t.equal(clamp01(-1), 0);
  t.equal(clamp01(2), 1);
  t.end();
});
