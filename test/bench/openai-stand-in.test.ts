import OpenAI from 'openai';
import t from 'tap';
import { openAIStandIn, standInAnswer, standInProvider } from '../../bench/lib/openai-stand-in.js';

t.test('the openai client gets a completion from the in-process stand-in, naming the messages it read', async (t) => {
  const client = new OpenAI({ apiKey: 'sk-bench', baseURL: 'http://llm.bench.invalid/v1', maxRetries: 0, fetch: openAIStandIn() });
  const completion = await client.chat.completions.create({
    model: 'bench-model',
    messages: [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'hello' },
    ],
  });
  t.equal(completion.choices[0]?.message.content, 'I read 2 messages. Tell me more!');
  t.equal(completion.model, 'bench-model');
  const models = await client.models.list();
  t.same(
    models.data.map((model) => model.id),
    ['bench-model'],
  );
});

t.test('an unknown path is a 404 with an OpenAI-style error body', (t) => {
  t.same(standInAnswer('/v1/embeddings', '{}'), { status: 404, body: { error: { message: 'not found' } } });
  t.end();
});

t.test('BENCH_PROVIDER_URL sends the calls to that process through the global fetch', (t) => {
  const saved = process.env.BENCH_PROVIDER_URL;
  t.teardown(() => {
    if (saved === undefined) delete process.env.BENCH_PROVIDER_URL;
    else process.env.BENCH_PROVIDER_URL = saved;
  });
  delete process.env.BENCH_PROVIDER_URL;
  const inProcess = standInProvider();
  t.equal(inProcess.baseURL, 'http://llm.bench.invalid/v1');
  t.type(inProcess.fetch, 'function');
  process.env.BENCH_PROVIDER_URL = 'http://127.0.0.1:4321';
  t.same(standInProvider(), { baseURL: 'http://127.0.0.1:4321/v1' });
  t.end();
});
