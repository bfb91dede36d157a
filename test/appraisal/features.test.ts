import t from 'tap';
import { featuresOf, lexiconHits, readTokens } from '../../src/appraisal/features.js';

t.test('words are lowercased and stemmed; emoji and emoticons are kept; only ! and ? of the punctuation', (t) => {
  t.same(
    readTokens('I am TERRIFIED!! :( 😡 [NAME], really?').map(({ word, key, mark }) => [word, key, mark]),
    [
      ['i', 'i', false],
      ['am', 'am', false],
      ['terrified', 'terrifi', false],
      ['!', '!', true],
      ['!', '!', true],
      [':(', ':(', false],
      ['😡', '😡', false],
      ['name', 'name', false],
      ['really', 'realli', false],
      ['?', '?', true],
    ],
  );
  t.end();
});

t.test("a negation is one word: don't reads as do not", (t) => {
  t.same(
    readTokens("I don't like it").map(({ word }) => word),
    ['i', 'do', 'not', 'like', 'it'],
  );
  t.end();
});

t.test('the features are the distinct words, adjacent pairs and AFINN weights', (t) => {
  t.same(featuresOf('so so sad').sort(), ['afinn:-2', 'sad', 'so', 'so sad', 'so so']);
  t.same(featuresOf(''), []);
  t.end();
});

t.test('a lexicon weight names the words that carry it, negation applied', (t) => {
  t.same(
    lexiconHits('I am furious, not good, and I hate it'),
    [{ key: 'afinn:-3', words: ['hate', 'good', 'furious'] }],
    '"good" (3) negated',
  );
  t.same(lexiconHits('a lovely day'), [{ key: 'afinn:3', words: ['lovely'] }]);
  t.end();
});
