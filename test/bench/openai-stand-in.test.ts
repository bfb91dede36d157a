import t from 'tap';
import { standInAnswer, standInBaseUrl } from '../../bench/lib/openai-stand-in.js';

t.test('a completion names the messages it read, for the model asked', (t) => {
  const body = JSON.stringify({ model: 'bench-model', messages: [{ role: 'system' }, { role: 'user' }] });
  t.match(standInAnswer('/v1/chat/completions', body), {
    status: 200,
    body: {
      object: 'chat.completion',
      model: 'bench-model',
      choices: [{ message: { role: 'assistant', content: 'I read 2 messages. Tell me more!' } }],
    },
  });
  t.end();
});

t.test('the model list offers the bench model, so startup finds it', (t) => {
  t.match(standInAnswer('/v1/models', ''), { status: 200, body: { object: 'list', data: [{ id: 'bench-model' }] } });
  t.end();
});

t.test('an unknown path is a 404 with an OpenAI-style error body', (t) => {
  t.same(standInAnswer('/v1/embeddings', '{}'), { status: 404, body: { error: { message: 'not found' } } });
  t.end();
});

t.test('the bench servers find the stand-in at BENCH_PROVIDER_URL, and only there', (t) => {
  t.equal(standInBaseUrl({ BENCH_PROVIDER_URL: 'http://127.0.0.1:4321' }), 'http://127.0.0.1:4321/v1');
  t.throws(() => standInBaseUrl({}), /BENCH_PROVIDER_URL is not set/);
  t.end();
});
