import t from 'tap';
import { analyzeSentiment } from '../../src/emotions/sentiment.js';

t.test('labels follow the AFINN total; scores are each side strength in 0..1', (t) => {
  const love = analyzeSentiment('I love dogs');
  t.same(love, { sentiment: { sentiment: 'positive', positive: 3 / 7, negative: 0 }, score: 3 });
  const hate = analyzeSentiment('I hate rain');
  t.equal(hate.sentiment.sentiment, 'negative');
  t.equal(hate.sentiment.negative, 3 / 7);
  t.equal(hate.sentiment.positive, 0);
  t.same(analyzeSentiment('The table is brown').sentiment, { sentiment: 'neutral', positive: 0, negative: 0 });
  t.end();
});

t.test('mixed messages keep both sides; negation flips a word', (t) => {
  const mixed = analyzeSentiment('good food but awful service');
  t.ok(mixed.sentiment.positive > 0 && mixed.sentiment.negative > 0);
  t.equal(analyzeSentiment('I do not hate it').sentiment.sentiment, 'positive');
  const strong = analyzeSentiment('amazing wonderful fantastic superb love');
  t.ok(strong.sentiment.positive > 0.8 && strong.sentiment.positive < 1, 'strength saturates below 1');
  t.end();
});
