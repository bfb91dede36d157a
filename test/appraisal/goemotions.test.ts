import t from 'tap';
import { APPRAISAL_LABELS } from '../../src/appraisal/appraisal.js';
import { labelIds, parseSplit } from '../../src/appraisal/training/goemotions.js';

t.test("Ekman's groups land on the product's labels: disgust is anger, surprise is curiosity, fear is fear", (t) => {
  const names = ['anger', 'disgust', 'fear', 'joy', 'neutral', 'sadness', 'surprise'];
  t.same(
    labelIds(names.join('\n')).map((id) => APPRAISAL_LABELS[id]),
    ['anger', 'anger', 'fear', 'joy', 'neutral', 'sadness', 'curiosity'],
  );
  t.throws(() => labelIds('anger\nlove'), { message: /unknown label "love"/ });
  t.end();
});

t.test('a split line is text, label ids and a comment id; the ids become distinct labels', (t) => {
  const ids = labelIds('anger\ndisgust\nfear\njoy\nneutral\nsadness\nsurprise');
  t.same(parseSplit('so scary\t2\tc1\nugh, gross\t0,1\tc2\n', ids), [
    { text: 'so scary', labels: [APPRAISAL_LABELS.indexOf('fear')] },
    { text: 'ugh, gross', labels: [APPRAISAL_LABELS.indexOf('anger')] },
  ]);
  t.throws(() => parseSplit('no labels\t9\tc3', ids, 'dev.tsv'), { message: /^dev\.tsv:1:/ });
  t.end();
});
