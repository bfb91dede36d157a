import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import t from 'tap';
import { CALIBRATION_CHART_URL, evaluateAppraisal } from '../../src/appraisal/evaluation/evaluation-run.js';
import { readModelFile, loadShippedModel } from '../../src/appraisal/shipped-model.js';
import { wordReader } from '../support/appraisal-models.js';
import { testDir } from '../support/test-dir.js';

/** Reads "happy" as joy and "scared" as fear, all else as neutral, each all but certainly. */
const twoWordReader = () => wordReader({ happy: 'joy', scared: 'fear' }, 20, 10);

t.test('a dev split of four comments, scored by hand; nothing but labels.txt and dev.tsv is read', async (t) => {
  const dir = testDir(t, {
    'labels.txt': 'anger\ndisgust\nfear\njoy\nneutral\nsadness\nsurprise\n',
    'dev.tsv': 'so happy\t3\ta\nso scared\t2\tb\ngross\t1\tc\nmeh\t4\td\n',
  });
  const { text, ekman, calibration } = await evaluateAppraisal(twoWordReader(), pathToFileURL(`${dir}/`));
  // Joy and fear are read right (F1 1); "gross" (disgust) and "meh" read neutral: neutral F1 2·1/(2+1).
  // Anger, sadness and surprise are neither given nor predicted, disgust is never predicted: 0 each.
  t.same(
    ekman.asAnger.f1.map((f1) => f1.toFixed(3)),
    ['0.000', '0.000', '1.000', '1.000', '0.667', '0.000', '0.000'],
  );
  t.equal(ekman.asAnger.macroF1.toFixed(3), '0.381', '(1 + 1 + 2/3) / 7');
  t.equal(ekman.asAnger.threshold, 0.01, 'every threshold scores the same: the lowest');
  t.equal(ekman.never.macroF1, ekman.asAnger.macroF1, 'anger is never above the threshold here');
  t.match(text, /macro-F1 \(seven labels\) +0\.381/);
  t.match(text, /without disgust \(six\) +0\.444/, '(1 + 1 + 2/3) / 6');
  t.same(
    calibration.joy!.bins.map(({ count, observed }) => [count, observed]),
    [
      [3, 0],
      [1, 1],
    ],
    'joy: three comments near 0 without joy, one near 1 with it',
  );
});

t.test('the shipped model on the dev split: the recorded scores, the Ekman score, and the chart docs/ shows', async (t) => {
  const file = await readModelFile();
  const { text, svg, ekman, calibration } = await evaluateAppraisal(await loadShippedModel());
  t.match(text, `macro-F1     ${file.dev.emotions.macroF1.toFixed(3)}`, 'the five emotions as the weights file records them');
  t.match(text, /true \\ read +joy +sadness +anger +fear +curiosity +neutral\n/, 'the six-label confusion table');
  t.same(ekman.names, ['anger', 'disgust', 'fear', 'joy', 'neutral', 'sadness', 'surprise']);
  t.ok(ekman.asAnger.macroF1 > 0.45, `Ekman macro-F1 ${ekman.asAnger.macroF1}`);
  t.ok(ekman.asAnger.f1[1]! > 0, 'disgust, scored as anger, is sometimes right');
  t.ok(ekman.asAnger.macroF1 > ekman.never.macroF1, 'scoring disgust as anger can only add its F1');
  t.ok(ekman.asAnger.macroF1 >= ekman.paper.macroF1, 'the chosen threshold is at least as good as 0.3');
  for (const [name, { count }] of Object.entries(calibration)) t.equal(count, 5426, `${name}: every dev comment`);
  for (const colour of ['#f2b705', '#3d7dd8', '#d64545', '#8455c7', '#1f9d7a']) t.match(svg, `fill="${colour}"`);
  t.ok(
    svg === (await readFile(CALIBRATION_CHART_URL, 'utf8')),
    'docs/appraisal-calibration.svg is what the script writes (after retraining: npm run evaluate:appraisal)',
  );
});
