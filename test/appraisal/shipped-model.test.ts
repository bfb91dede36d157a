import { readFile } from 'node:fs/promises';
import t from 'tap';
import { appraise } from '../../src/appraisal/appraisal.js';
import { MODEL_FORMAT, ModelFileError, modelFromFile, parseModelFile } from '../../src/appraisal/model-file.js';
import { readModelFile, SHIPPED_MODEL_URL } from '../../src/appraisal/shipped-model.js';
import { evaluate } from '../../src/appraisal/training/evaluate.js';
import { readGoEmotions } from '../../src/appraisal/training/goemotions.js';
import { DEFAULT_SETTINGS, train } from '../../src/appraisal/training/train.js';
import { GOEMOTIONS_FOLDER, trainAppraisal } from '../../src/appraisal/training/training-run.js';

t.test('the shipped weights score on the dev split exactly what their file records, and well', async (t) => {
  const file = await readModelFile();
  const { dev } = await readGoEmotions(GOEMOTIONS_FOLDER);
  const scores = evaluate(modelFromFile(file), dev);
  t.same({ f1: scores.emotions.f1, macroF1: scores.emotions.macroF1 }, file.dev.emotions);
  t.same({ f1: scores.labels.f1, macroF1: scores.labels.macroF1 }, file.dev.labels);
  // The one-axis rule this replaced read the five emotions at macro-F1 0.26.
  t.ok(scores.emotions.macroF1 >= 0.6, `five emotions macro-F1 ${scores.emotions.macroF1}`);
  for (const [emotion, f1] of Object.entries(scores.emotions.f1)) t.ok(f1 >= 0.45, `${emotion} F1 ${f1}`);
});

t.test('the shipped file is what npm run train:appraisal writes, byte for byte', async (t) => {
  const { text } = await trainAppraisal();
  t.ok(text === (await readFile(SHIPPED_MODEL_URL, 'utf8')), 'models/appraisal.json is the training script’s output');
});

t.test('training is seeded: the same examples and seed give the same weights, another seed others', async (t) => {
  const { train: examples } = await readGoEmotions(GOEMOTIONS_FOLDER);
  const few = examples.slice(0, 2000);
  const a = train(few, { ...DEFAULT_SETTINGS, epochs: 1 });
  const b = train(few, { ...DEFAULT_SETTINGS, epochs: 1 });
  const c = train(few, { ...DEFAULT_SETTINGS, epochs: 1, seed: DEFAULT_SETTINGS.seed + 1 });
  t.same(a.features, b.features);
  t.ok(
    a.weights.every((w, i) => w === b.weights[i]),
    'same weights',
  );
  t.notOk(
    a.weights.every((w, i) => w === c.weights[i]),
    'another order, other weights',
  );
});

t.test('a weights file of another layout is refused with what is wrong, never misread', (t) => {
  const good = {
    format: MODEL_FORMAT,
    labels: ['joy', 'sadness', 'anger', 'fear', 'curiosity', 'neutral'],
    scale: 1000,
    bias: [0, 0, 0, 0, 0, 0],
  };
  t.throws(() => parseModelFile('{"features'), ModelFileError);
  t.throws(() => parseModelFile('[]'), { message: /no features/ });
  const file = (extra: object) => ({ ...good, data: '', settings: {}, dev: {} as never, features: {}, ...extra }) as never;
  t.throws(() => modelFromFile(file({ format: 'other@2' })), { message: /format is "other@2"/ });
  t.throws(() => modelFromFile(file({ labels: ['joy'] })), { message: /labels are/ });
  t.throws(() => modelFromFile(file({ bias: [1, 2] })), { message: /bias must hold 6 numbers/ });
  t.throws(() => modelFromFile(file({ features: { hate: [1, 2, 'x', 4, 5, 6] } })), { message: /feature "hate"/ });
  const model = modelFromFile(file({ features: { hate: [0, 0, 3000, 0, 0, 0] } }));
  t.equal(appraise(model, 'I hate it').strongest, 'anger', 'weights are read in thousandths');
  t.end();
});
