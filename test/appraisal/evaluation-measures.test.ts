import t from 'tap';
import { calibrationOf } from '../../src/appraisal/evaluation/calibration.js';
import { calibrationChart } from '../../src/appraisal/evaluation/calibration-chart.js';
import { bestThreshold, ekmanScores, multiLabelF1 } from '../../src/appraisal/evaluation/ekman.js';
import { emotionColours } from '../../src/appraisal/evaluation/palette.js';

// Three labels, four comments; the F1 figures below are worked out by hand in the comments.
const COMMENTS = [
  { scores: [0.6, 0.3, 0.1], labels: [0] },
  { scores: [0.2, 0.5, 0.3], labels: [1, 2] },
  { scores: [0.5, 0.1, 0.4], labels: [2] },
  { scores: [0.1, 0.1, 0.8], labels: [1] },
];

t.test('multi-label F1: each label a yes/no question on every comment, yes from the threshold on', (t) => {
  // At 0.5 the predictions are {0}, {1}, {0} (0.5 counts), {2}. Label 0: 1 hit of 2 predicted, 1 given → 2/3.
  // Label 1: 1 of 1 predicted, 2 given → 2/3. Label 2: 0 of 1 predicted → 0. Mean 4/9.
  const half = multiLabelF1(COMMENTS, 3, 0.5);
  t.same(
    half.f1.map((f1) => f1.toFixed(4)),
    ['0.6667', '0.6667', '0.0000'],
  );
  t.equal(half.macroF1.toFixed(4), '0.4444');
  // At 0.3 a comment gets several labels: {0,1}, {1,2}, {0,2}, {2} → 2/3, 2·1/(2+2) = 0.5, 2·2/(3+2) = 0.8.
  const low = multiLabelF1(COMMENTS, 3, 0.3);
  t.same(
    low.f1.map((f1) => f1.toFixed(4)),
    ['0.6667', '0.5000', '0.8000'],
  );
  t.equal(low.macroF1.toFixed(4), '0.6556');
  // A label nobody gave and nothing predicts scores 0, and still counts in the mean.
  t.equal(multiLabelF1([{ scores: [0.9, 0], labels: [0] }], 2, 0.5).macroF1, 0.5);
  t.end();
});

t.test('the threshold is the one global value that maximises macro-F1, the lowest on a tie', (t) => {
  // By hand: ≤0.1 → 0.578, (0.1, 0.2] → 0.6, (0.2, 0.3] → 0.656, (0.3, 0.4] → 0.611, (0.4, 0.5] → 0.444.
  const best = bestThreshold(COMMENTS, 3);
  t.equal(best.threshold, 0.21);
  t.equal(best.macroF1.toFixed(4), '0.6556');
  t.equal(bestThreshold(COMMENTS, 3, [0.5, 0.35]).threshold, 0.35);
  t.equal(bestThreshold(COMMENTS, 3, [0.25, 0.3]).threshold, 0.25, 'the same score: the first candidate');
  t.throws(() => bestThreshold(COMMENTS, 3, []), { message: /no threshold/ });
  t.end();
});

t.test('our reading onto the seven Ekman labels: surprise is curiosity, disgust is anger or never', (t) => {
  const reading = {
    emotions: { joy: 0.1, sadness: 0.2, anger: 0.3, fear: 0.05, curiosity: 0.15 },
    neutral: 0.2,
    strongest: 'anger' as const,
  };
  const names = ['anger', 'disgust', 'fear', 'joy', 'neutral', 'sadness', 'surprise'];
  t.same(ekmanScores(reading, names, 'as-anger'), [0.3, 0.3, 0.05, 0.1, 0.2, 0.2, 0.15]);
  t.same(ekmanScores(reading, names, 'never'), [0.3, 0, 0.05, 0.1, 0.2, 0.2, 0.15]);
  t.same(ekmanScores(reading, ['surprise', 'joy'], 'never'), [0.15, 0.1], 'in the order labels.txt gives');
  t.throws(() => ekmanScores(reading, ['love'], 'never'), { message: /no Ekman label "love"/ });
  t.end();
});

t.test('calibration: forecasts binned by tenths, the mean forecast against the share that happened', (t) => {
  const calibration = calibrationOf([
    { p: 0.05, happened: false },
    { p: 0.05, happened: true },
    { p: 0.15, happened: false },
    { p: 0.9, happened: false },
    { p: 0.95, happened: true },
    { p: 1, happened: true },
  ]);
  t.same(
    calibration.bins.map(({ from, count, predicted, observed }) => [from, count, predicted.toFixed(3), observed.toFixed(3)]),
    [
      [0, 2, '0.050', '0.500'],
      [0.1, 1, '0.150', '0.000'],
      [0.9, 3, '0.950', '0.667'],
    ],
    'empty tenths are left out; 1 falls in the last',
  );
  // 2/6·|0.5 − 0.05| + 1/6·|0 − 0.15| + 3/6·|2/3 − 0.95| = 0.15 + 0.025 + 0.1417
  t.equal(calibration.ece.toFixed(4), '0.3167');
  t.equal(calibrationOf([{ p: 0.3, happened: true }], 2).bins[0]!.to, 0.5, 'another bin count');
  t.throws(() => calibrationOf([{ p: 1.2, happened: true }]), { message: /0\.\.1, got 1\.2/ });
  t.throws(() => calibrationOf([{ p: Number.NaN, happened: true }]), { message: /got NaN/ });
  t.end();
});

t.test('the chart: a panel per label in its colour, points where their numbers say, the same text every time', (t) => {
  const calibration = calibrationOf([...Array.from({ length: 10 }, (_, k) => ({ p: 0.5, happened: k < 5 })), { p: 0.95, happened: true }]);
  const series = [
    { name: 'joy', colour: '#f2b705', calibration },
    { name: 'fear', colour: '#8455c7', calibration },
  ];
  const svg = calibrationChart(series, { title: 'dev <split> & more', minCount: 2 });
  t.equal(svg, calibrationChart(series, { title: 'dev <split> & more', minCount: 2 }), 'deterministic');
  t.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="900" height="348"/, 'one row of three cells below the title');
  t.match(svg, '<title id="chart-title">dev &lt;split&gt; &amp; more</title>');
  // The first panel's plot is 210 px square from (60, 92): p 0.5, observed 0.5 is its centre.
  t.match(svg, /<circle cx="165" cy="197" r="[\d.]+" fill="#f2b705"/);
  t.match(svg, /<circle cx="465" cy="197" r="[\d.]+" fill="#8455c7"/, 'the second panel, one cell to the right');
  t.equal(svg.match(/<circle /g)?.length, 2, 'the bin of one comment (under minCount) is left out');
  t.match(svg, '<line x1="60" y1="302" x2="270" y2="92" stroke="#5b6275" stroke-dasharray="4 4"/>', 'the diagonal');
  t.equal(svg.match(/>predicted probability</g)?.length, 2);
  t.equal(svg.match(/>observed frequency</g)?.length, 2);
  t.match(svg, 'ECE 0.005', '(1/11)·|1 − 0.95|');
  t.match(svg, 'How to read it');
  t.equal(svg.match(/<g /g)?.length, svg.match(/<\/g>/g)?.length, 'every group closed');
  t.end();
});

t.test("the colours are the page's bar colours, read from its stylesheet", (t) => {
  const css = ':root { --joy: #F2B705; --sadness: #3d7dd8; --anger:#d64545; --fear: #8455c7; --curiosity: #1f9d7a; }';
  t.same(emotionColours(css), { joy: '#f2b705', sadness: '#3d7dd8', anger: '#d64545', fear: '#8455c7', curiosity: '#1f9d7a' });
  t.throws(() => emotionColours(css.replace('--fear: #8455c7;', '')), { message: /no hex colour for --fear/ });
  t.end();
});
