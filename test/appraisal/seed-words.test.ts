import t from 'tap';
import { APPRAISAL_LABELS, appraise } from '../../src/appraisal/appraisal.js';
import { modelFromFile } from '../../src/appraisal/model-file.js';
import { loadShippedModel } from '../../src/appraisal/shipped-model.js';
import { packModel } from '../../src/appraisal/training/pack.js';
import { expandSeeds, SEED_WORDS, wordVectorsOf } from '../../src/appraisal/training/seed-words.js';
import { DEFAULT_SETTINGS, train } from '../../src/appraisal/training/train.js';

// Two axes are enough to place words: joy along x, anger along y, the rest in between.
const toyVectors = (entries: Record<string, readonly number[]>) =>
  wordVectorsOf(
    {
      dimensions: 2,
      wordIndex: 3,
      vectors: Object.fromEntries(Object.entries(entries).map(([word, [x, y]], rank) => [word, [x!, y!, Math.hypot(x!, y!), rank]])),
    },
    100,
  );
const toySeeds = { joy: ['happy'], sadness: ['sad'], anger: ['angry'], fear: ['afraid'], curiosity: ['curious', 'wondering'] };

t.test('a word joins the emotion whose seeds it lies nearest, when clearly nearer; seeds stay with their own', (t) => {
  const vectors = toyVectors({
    happy: [1, 0],
    angry: [0, 1],
    sad: [-1, 0],
    afraid: [0, -1],
    curious: [1, -1],
    wondering: [-1, -1],
    elated: [0.9, 0.1],
    livid: [0.1, 0.9],
    bittersweet: [1, 1],
    the: [1, 0.01],
    Rome: [0.99, 0],
  });
  const words = expandSeeds(vectors, { vocabulary: 100, perEmotion: 10, margin: 0.1 }, toySeeds);
  const of = (emotion: string) => words.filter((word) => word.emotion === emotion).map(({ word }) => word);
  t.same(of('joy'), ['happy', 'elated'], 'the most similar first; a stop word ("the") and a capitalised name never');
  t.same(of('anger'), ['angry', 'livid']);
  t.notOk(
    words.some(({ word }) => word === 'bittersweet'),
    'as near joy as anger: left out',
  );
  t.same(of('curiosity'), ['curious', 'wondering'], 'a seed is kept even when another centre is as near; ties in alphabetical order');
  t.same(
    expandSeeds(vectors, { vocabulary: 100, perEmotion: 1, margin: 0.1 }, toySeeds).map(({ word }) => word),
    ['happy', 'sad', 'angry', 'afraid', 'curious'],
    'perEmotion bounds each emotion',
  );
  t.same(expandSeeds(vectors, { vocabulary: 100, perEmotion: 10, margin: 0.1 }, toySeeds), words, 'deterministic');
  t.throws(() => expandSeeds(toyVectors({ happy: [1, 0] }), { vocabulary: 100, perEmotion: 1, margin: 0 }, toySeeds), {
    message: /no vector for any seed of sadness/,
  });
  t.end();
});

t.test('a weak example gives a word no comment holds the weight of its emotion', (t) => {
  const anger = APPRAISAL_LABELS.indexOf('anger');
  const joy = APPRAISAL_LABELS.indexOf('joy');
  const comments = [
    ...Array.from({ length: 20 }, (_, k) => ({ text: `I am so happy ${k}`, labels: [joy] })),
    ...Array.from({ length: 20 }, (_, k) => ({ text: `this is awful and I hate it ${k}`, labels: [anger] })),
  ];
  const read = (weak: { text: string; labels: number[] }[]) =>
    appraise(modelFromFile(packModel(train(comments, DEFAULT_SETTINGS, weak), { data: '', settings: {}, dev: {} as never })), 'livid');
  t.equal(read([]).cues.length, 0, 'without it, "livid" has no weight: nothing to read');
  const taught = read([{ text: 'livid', labels: [anger] }]);
  t.equal(taught.strongest, 'anger', JSON.stringify(taught.emotions));
  t.same(taught.cues, ['livid']);
  t.end();
});

t.test('the shipped model carries rare emotion words to their kind', async (t) => {
  const model = await loadShippedModel();
  for (const [text, emotion] of [
    ['I am livid', 'anger'],
    ['I am enraged', 'anger'],
    ['I feel so forlorn', 'sadness'],
  ] as const) {
    const appraisal = appraise(model, text);
    t.equal(appraisal.reading, emotion, `"${text}": ${JSON.stringify(appraisal.emotions)}, neutral ${appraisal.neutral}`);
  }
  // The seeds are plain words: the rare ones above were found, not listed.
  t.notOk(
    Object.values(SEED_WORDS)
      .flat()
      .some((word) => ['livid', 'enraged', 'forlorn'].includes(word)),
  );
});
