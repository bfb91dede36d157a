import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_EMOTIONS, roundEmotions } from '../../src/emotions/model.js';
import { startRealService as start } from '../support/real-service.js';
import { completion, modelList } from '../../testkit/provider-wire.js';
import { mockProviderHttp, mockedProvider } from '../../testkit/provider-nock.js';

// The real composition root and the real actor system on 127.0.0.1, port 0;
// only the model provider is mocked, at its base URL.
mockProviderHttp(t, '127.0.0.1');

t.test('no key: the page is served, the API says missing_llm_key and points to /error', async (t) => {
  const service = await start(t, {});
  t.same(await service.settled(), {
    is_initialized: false,
    initializing: false,
    missing_llm_key: true,
    error_page: '/error',
    status: 'missing_api_key',
    message: 'The language model API key (LLM_API_KEY) is missing, so chat is unavailable.',
  });
  const page = await service.get('/');
  t.equal(page.status, 200);
  t.match(page.body, 'id="joy-bar"');
  const error = await service.get('/error');
  t.equal(error.status, 200);
  t.match(error.body, 'LLM_API_KEY');

  const chat = await service.chat({ message: 'hello?' });
  t.equal(chat.status, 503);
  t.match(chat.body, { error: /LLM_API_KEY/, status: 'missing_llm_key', is_initialized: false });

  const avatar = await service.get('/api/avatar');
  t.equal(avatar.status, 200);
  t.match(avatar.body, { is_initialized: false, status: 'missing_llm_key', emotions: roundEmotions(DEFAULT_EMOTIONS) });
  t.equal((await service.get('/api/availability')).status, 503);
  t.match((await service.get('/status')).body, { is_initialized: false, initializing: false, missing_llm_key: true });
  t.match(await service.get('/health'), { status: 200, body: { status: 'healthy' } });
  t.same(service.exits, [], 'a missing key is not a failure');
});

t.test('with a key: initializing first, then ready; a chat replies and moves the emotions', async (t) => {
  // The key check answers late, so the service is seen initializing first.
  const models = mockedProvider().models().delay(300).reply(200, modelList());
  const service = await start(t, { LLM_API_KEY: 'sk-test-e2e' });
  t.match((await service.get('/api/is_initialized')).body, { is_initialized: false, initializing: true, status: 'initializing' });
  const early = await service.chat({ message: 'are you there?' });
  t.equal(early.status, 503);
  t.match(early.body, { error: /not initialized/, is_initialized: false, status: 'initializing' });
  t.match(await service.get('/api/availability'), { status: 503, body: { available: false, status: 'initializing' } });

  t.same(await service.settled(), { is_initialized: true, initializing: false, missing_llm_key: false, status: 'ready' });
  t.ok(models.isDone());
  t.match(await service.get('/api/availability'), { status: 200, body: { available: true, is_initialized: true, status: 'ready' } });

  const before = (await service.get('/api/avatar')).body;
  t.match(before, { is_initialized: true, status: 'ready', last_updated: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/ });

  let sent: any;
  const reply = mockedProvider()
    .completions((body) => (sent = body) !== undefined)
    .reply(200, completion('What a <b>lovely</b> day!'));
  const chat = await service.chat({ message: 'I love this wonderful sunny day' });
  t.equal(chat.status, 200);
  t.match(chat.body, {
    response: 'What a <b>lovely</b> day!',
    avatar_shape: /^(Circle|Triangle|Square)$/,
    is_initialized: true,
  });
  t.ok(reply.isDone());
  t.match(sent, { messages: [{ role: 'system' }, { role: 'user', content: 'I love this wonderful sunny day' }] });
  for (const value of Object.values(chat.body.emotions as Record<string, number>)) {
    t.equal(value, Math.round(value * 100) / 100, 'two decimals at most');
  }
  t.ok(chat.body.emotions.joy > before.emotions.joy, 'a happy message raises joy');

  const after = (await service.get('/api/avatar')).body;
  t.same(after.emotions, chat.body.emotions, 'the avatar shows what the chat returned');
  t.equal(after.sentiment.sentiment, 'positive');
  t.match((await service.get('/status')).body, { is_initialized: true, emotions: chat.body.emotions });

  await service.service.close();
  const saved = JSON.parse(readFileSync(join(service.dir, 'emotions.json'), 'utf8')) as object;
  t.ok(saved, 'the state is flushed to disk on a graceful stop');
  t.same(service.exits, []);
});

t.test('a bad request never reaches the provider and never changes the emotions', async (t) => {
  mockedProvider().models().reply(200, modelList());
  const service = await start(t, { LLM_API_KEY: 'sk-test-e2e', MAX_MESSAGE_LENGTH: '20' });
  await service.settled();
  const untouched = mockedProvider().completions().reply(200, completion('should not be asked'));
  const before = (await service.get('/api/avatar')).body;
  t.same((await service.chat({})).body, { error: 'No message provided' });
  t.equal((await service.chat({ message: '   ' })).status, 400);
  t.equal((await service.chat({ message: 42 })).status, 400);
  t.equal((await service.chat({ message: 'x'.repeat(21) })).status, 413);
  const broken = await fetch(`${service.service.address}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"message":',
  });
  t.equal(broken.status, 400);
  t.match(await broken.json(), { error: /Malformed JSON/ });
  const notJson = await fetch(`${service.service.address}/api/chat`, { method: 'POST', body: 'message=hi' });
  t.equal(notJson.status, 415);
  const unknown = await service.get('/api/nothing');
  t.same(unknown, { status: 404, type: 'application/json; charset=utf-8', body: { error: 'Route GET /api/nothing not found' } });
  t.notOk(untouched.isDone(), 'the provider was never asked');
  t.same((await service.get('/api/avatar')).body.emotions, before.emotions);
});

t.test('a provider failure during a chat: a JSON error, the event log flushed, then exit(1)', async (t) => {
  mockedProvider().models().reply(200, modelList());
  const service = await start(t, { LLM_API_KEY: 'sk-test-e2e' });
  await service.settled();
  mockedProvider()
    .completions()
    .reply(500, { error: { message: 'model overloaded' } });
  const chat = await service.chat({ message: 'hello there' });
  t.equal(chat.status, 502);
  t.match(chat.body, { error: /language model failed/, status: 'error' });
  t.notMatch(JSON.stringify(chat.body), 'overloaded', 'provider details stay in the log');
  t.equal(await service.exited, 1);
  const events = readFileSync(join(service.dir, 'events.jsonl'), 'utf8');
  t.match(events, '"type":"chat.rejected"', 'the event log was flushed before the exit');
  t.ok(existsSync(join(service.dir, 'emotions.json')), 'the state was flushed to disk');
  t.ok(
    service.logs.some((line) => line.level === 60 || (line.level === 50 && /overloaded/.test(JSON.stringify(line)))),
    'the failure is logged in detail',
  );
  t.notMatch(JSON.stringify(service.logs), 'sk-test-e2e', 'the key never reaches the log');
});
