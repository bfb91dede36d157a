import t from 'tap';
import { CliError } from '../../src/cli/exit-codes.js';
import { parseWatch, targetOf } from '../../src/cli/webhook-flags.js';

t.test('type:name splits on the first colon', (t) => {
  t.same(parseWatch(['model:gpt2', 'dataset:stanfordnlp/imdb', 'user:a:b']), [
    { type: 'model', name: 'gpt2' },
    { type: 'dataset', name: 'stanfordnlp/imdb' },
    { type: 'user', name: 'a:b' },
  ]);
  for (const bad of ['gpt2', ':gpt2', 'model:', 'model: ', 'Model:gpt2']) {
    t.throws(() => parseWatch([bad]), { name: 'CliError', exitCode: 2, message: /Valid types: dataset, model, org, space, user\./ }, bad);
  }
  t.end();
});

t.test('exactly one of --url and --job-id', (t) => {
  t.same(targetOf({ url: 'https://e.x' }), { url: 'https://e.x' });
  t.same(targetOf({ 'job-id': 'j' }), { jobId: 'j' });
  t.throws(() => targetOf({}), CliError);
  t.end();
});
