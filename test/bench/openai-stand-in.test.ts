import t from 'tap';
import { benchProvider, standInBaseUrl } from '../../bench/lib/openai-stand-in.js';
import { providerStandIn } from '../../testkit/provider-stand-in.js';

/** What the bench's stand-in answers to one request: its status and JSON body. */
async function answer(path: string, body?: object) {
  const response = await providerStandIn(benchProvider).fetch(`http://stand-in${path}`, {
    method: body ? 'POST' : 'GET',
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, body: await response.json() };
}

t.test('a completion names the messages it read, for the model asked', async (t) => {
  const body = { model: 'bench-model', messages: [{ role: 'system' }, { role: 'user' }] };
  t.match(await answer('/v1/chat/completions', body), {
    status: 200,
    body: {
      object: 'chat.completion',
      model: 'bench-model',
      choices: [{ message: { role: 'assistant', content: 'I read 2 messages. Tell me more!' } }],
    },
  });
});

t.test('a streamed completion is an event stream of word pieces, then the normal end', async (t) => {
  const response = await providerStandIn(benchProvider).fetch('http://stand-in/v1/chat/completions', {
    method: 'POST',
    body: JSON.stringify({ model: 'bench-model', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
  });
  t.equal(response.headers.get('content-type'), 'text/event-stream');
  const text = await response.text();
  t.match(text, /"content":"word1 "/);
  t.match(text, /data: \[DONE\]\n\n$/);
});

t.test('the model list offers the bench model, so startup finds it', async (t) => {
  t.match(await answer('/v1/models'), { status: 200, body: { object: 'list', data: [{ id: 'bench-model' }] } });
});

t.test('an unknown path is a 404 with an OpenAI-style error body', async (t) => {
  t.same(await answer('/v1/embeddings', {}), { status: 404, body: { error: { message: 'not found' } } });
});

t.test('the bench servers find the stand-in at BENCH_PROVIDER_URL, and only there', (t) => {
  t.equal(standInBaseUrl({ BENCH_PROVIDER_URL: 'http://127.0.0.1:4321' }), 'http://127.0.0.1:4321/v1');
  t.throws(() => standInBaseUrl({}), /BENCH_PROVIDER_URL is not set/);
  t.end();
});
