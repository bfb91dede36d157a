import t from 'tap';
import { DEFAULT_MODEL } from '../../src/config/chat-config.js';
import { failing, hanging, healthy, listeningProvider, providerStandIn } from '../../testkit/provider-stand-in.js';
import { OFFERED_MODEL } from '../../testkit/provider-wire.js';

const completionRequest = (stream = false) => ({
  method: 'POST',
  body: JSON.stringify({ model: OFFERED_MODEL, stream, messages: [{ role: 'user', content: 'hello' }] }),
});

t.test("the stand-in offers the service's default model", (t) => {
  t.equal(OFFERED_MODEL, DEFAULT_MODEL);
  t.end();
});

t.test('in process: the models list, a JSON completion, the calls and prompts recorded', async (t) => {
  const provider = providerStandIn(healthy('Hi there.'));
  t.match(await (await provider.fetch('http://llm.test/v1/models')).json(), { data: [{ id: DEFAULT_MODEL }] });
  const reply = await provider.fetch('http://llm.test/v1/chat/completions', completionRequest());
  t.match(await reply.json(), { choices: [{ message: { content: 'Hi there.' } }] });
  t.same(provider.calls, ['GET /v1/models', 'POST /v1/chat/completions']);
  t.match(provider.prompts, [{ messages: [{ role: 'user', content: 'hello' }] }]);
});

t.test('a completion asked for as a stream goes out as an event stream, word by word', async (t) => {
  const provider = providerStandIn(healthy('Hi there.'));
  const reply = await provider.fetch('http://llm.test/v1/chat/completions', completionRequest(true));
  t.equal(reply.headers.get('content-type'), 'text/event-stream');
  const text = await reply.text();
  t.match(text, /"content":"Hi "[\s\S]*"content":"there\."[\s\S]*data: \[DONE\]/);
});

t.test('a failing provider answers its status and message; a hanging one ends only when aborted', async (t) => {
  const broken = providerStandIn(failing(503, 'overloaded'));
  const failed = await broken.fetch('http://llm.test/v1/chat/completions', completionRequest());
  t.equal(failed.status, 503);
  t.same(await failed.json(), { error: { message: 'overloaded' } });
  const abort = new AbortController();
  const pending = providerStandIn(hanging()).fetch('http://llm.test/v1/chat/completions', { ...completionRequest(), signal: abort.signal });
  abort.abort();
  await t.rejects(pending, { name: 'AbortError' });
});

t.test('on a loopback port: the same answers, for a child process', async (t) => {
  const provider = await listeningProvider(t, healthy('Over the wire.'));
  t.match(provider.baseURL, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  const reply = await fetch(`${provider.baseURL}/chat/completions`, completionRequest());
  t.match(await reply.json(), { choices: [{ message: { content: 'Over the wire.' } }] });
  t.same(provider.calls, ['POST /v1/chat/completions']);
});

t.test('record: false keeps nothing', async (t) => {
  const provider = providerStandIn(healthy(), { record: false });
  await provider.fetch('http://llm.test/v1/chat/completions', completionRequest());
  t.same([provider.calls, provider.prompts], [[], []]);
});
