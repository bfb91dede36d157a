// The chat system's start: the keys and models it validates, the persisted state it loads, and how a
// failed start ends (one fatal line, exit 1, nothing written).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import t from 'tap';
import { DEFAULT_EMOTIONS } from '../../src/emotions/model.js';
import { serializeState } from '../../src/persistence/emotions-file.js';
import { START, harness } from '../support/harness.js';
import { modelList } from '../../testkit/provider-wire.js';
import { ofType } from '../support/bus-events.js';
import { MOCKED_BASE_URL, mockProviderHttp, mockedProvider } from '../../testkit/provider-nock.js';
import { KEY, chat, modelsOk, status } from '../support/system-steps.js';
import { testDir } from '../support/test-dir.js';

mockProviderHttp(t);

t.test('before start: status answers at once (initializing), chat is rejected as initializing', async (t) => {
  const { system, bus } = harness(t, { system: 'real', env: KEY });
  t.equal(system.phase, 'initializing');
  t.match(await status(bus), {
    phase: 'initializing',
    emotions: DEFAULT_EMOTIONS,
    avatarShape: 'Circle',
    sentiment: { sentiment: 'neutral' },
    lastUpdated: START,
  });
  t.match(await chat(bus, 'hello'), { type: 'chat.rejected', reason: 'initializing', error: /not initialized/ });
});

t.test('no LLM_API_KEY: key missing, no provider call, status serves the persisted state', async (t) => {
  const dir = testDir(t);
  const persisted = {
    emotions: { joy: 0.9, sadness: 0.05, anger: 0.05, fear: 0.05, curiosity: 0.3 },
    avatarShape: 'Triangle' as const,
    sentiment: { sentiment: 'positive' as const, positive: 0.5, negative: 0 },
    lastUpdated: '2026-11-20T08:00:00.000Z',
  };
  writeFileSync(join(dir, 'emotions.json'), serializeState(persisted));
  const { system, bus, events, exits } = harness(t, { system: 'real', dir });
  system.start();
  t.equal(await system.settled(), 'keyMissing');
  t.equal(system.phase, 'keyMissing');
  t.match(ofType(events, 'system.phase.changed'), [{ phase: 'keyMissing' }]);
  t.match(await chat(bus, 'hello'), { type: 'chat.rejected', reason: 'missing_llm_key', error: /LLM_API_KEY/ });
  t.match(await status(bus), { phase: 'keyMissing', ...persisted });
  t.same(exits, []);
  await system.stop();
  t.equal(readFileSync(join(dir, 'emotions.json'), 'utf8'), serializeState(persisted), 'the file is left as it was');
});

t.test('HTTP 429 on validation counts as a valid key; one call serves both providers when they are the same', async (t) => {
  const scope = mockedProvider()
    .models()
    .once()
    .reply(429, { error: { message: 'Rate limit reached' } });
  const { system, bus, events } = harness(t, { system: 'real', env: KEY });
  system.start();
  t.equal(await system.settled(), 'ready');
  t.ok(scope.isDone());
  t.match(
    ofType(events, 'system.component.ready')
      .map((e) => e.component)
      .sort(),
    ['memoryStore', 'primaryProvider', 'secondaryProvider', 'sentimentAnalyzer'],
  );
  t.match(await status(bus), { phase: 'ready' });
  t.match(ofType(events, 'system.phase.changed'), [{ phase: 'ready' }]);
});

t.test('a separate conversational provider is validated with its own key', async (t) => {
  const primary = mockedProvider(MOCKED_BASE_URL, { reqheaders: { authorization: 'Bearer sk-test-primary' } })
    .models()
    .reply(200, modelList());
  const secondary = mockedProvider('http://chat.test/v1', { reqheaders: { authorization: 'Bearer sk-test-chat' } })
    .models()
    .reply(429, {});
  const { system } = harness(t, { system: 'real', env: { ...KEY, CHAT_API_KEY: 'sk-test-chat', CHAT_BASE_URL: 'http://chat.test/v1' } });
  system.start();
  t.equal(await system.settled(), 'ready');
  t.ok(primary.isDone() && secondary.isDone());
});

t.test('401 on the primary key: failed, one detailed log line, exit 1, nothing written', async (t) => {
  mockedProvider()
    .models()
    .reply(401, { error: { message: 'Incorrect API key provided' } });
  const { system, bus, events, logs, exited, file } = harness(t, { system: 'real', env: KEY });
  system.start();
  t.equal(await system.settled(), 'failed');
  t.equal(await exited, 1);
  const fatal = logs.filter((line) => line.level === 60);
  t.equal(fatal.length, 1, 'one fatal line');
  t.match(fatal[0], { component: 'primaryProvider', msg: /chat model.*HTTP 401.*Incorrect API key/ });
  t.notMatch(JSON.stringify(logs), /sk-test-primary/, 'the key never reaches the log');
  t.match(ofType(events, 'system.phase.changed'), [{ phase: 'failed', component: 'primaryProvider', reason: /401/ }]);
  t.match(await chat(bus, 'hi'), { reason: 'system_failed' });
  t.throws(() => readFileSync(file), { code: 'ENOENT' });
});

t.test('a failing secondary key fails startup too', async (t) => {
  modelsOk();
  mockedProvider('http://chat.test/v1')
    .models()
    .reply(403, { error: { message: 'forbidden' } });
  const { system, exited, logs } = harness(t, {
    system: 'real',
    env: { ...KEY, CHAT_API_KEY: 'sk-test-chat', CHAT_BASE_URL: 'http://chat.test/v1' },
  });
  system.start();
  t.equal(await exited, 1);
  t.match(
    logs.find((line) => line.level === 60),
    { component: 'secondaryProvider', msg: /HTTP 403/ },
  );
});

t.test('a corrupt emotions file fails startup naming the file, and is left untouched', async (t) => {
  modelsOk();
  const dir = testDir(t, { 'emotions.json': '{ "version": 1, "emo' });
  const { system, exited, logs, file } = harness(t, { system: 'real', env: KEY, dir });
  system.start();
  t.equal(await exited, 1);
  t.match(
    logs.find((line) => line.level === 60),
    { component: 'memoryStore', reason: new RegExp(file.replace(/[.]/g, '\\.')) },
  );
  t.equal(readFileSync(file, 'utf8'), '{ "version": 1, "emo');
});

t.test('the key-missing phase makes no provider call, whichever *_API_KEY is set', async (t) => {
  // No interceptor and no network: any provider call would fail the start instead.
  const { system, logs } = harness(t, { system: 'real', env: { CHAT_API_KEY: 'sk-test-chat', CHAT_BASE_URL: 'http://chat.test/v1' } });
  system.start();
  t.equal(await system.settled(), 'keyMissing');
  t.ok(nock.isDone() && nock.pendingMocks().length === 0);
  // What to set is the service's to say, last before "ready" (test/service/terminal-lines.test.ts).
  t.same(
    logs.filter((line) => line.level === 40),
    [],
  );
});

t.test('a model the provider does not offer fails startup: one line naming the model, the base URL and what it offers', async (t) => {
  mockedProvider().models().reply(200, modelList('llama3.2', 'qwen2.5:7b'));
  const { system, exited, logs } = harness(t, { system: 'real', env: KEY });
  system.start();
  t.equal(await system.settled(), 'failed');
  t.equal(await exited, 1);
  const fatal = logs.filter((line) => line.level === 60);
  t.equal(fatal.length, 1);
  t.equal(
    fatal[0]?.msg,
    'chat system failed: chat model: model "gpt-4o-mini" is not offered by http://llm.test/v1: it offers llama3.2, qwen2.5:7b; exiting with status 1',
  );
});

t.test('CHAT_MODEL is checked too, on the shared provider', async (t) => {
  const scope = mockedProvider().models().once().reply(200, modelList('llama3.2'));
  const { system, exited, logs } = harness(t, { system: 'real', env: { ...KEY, LLM_MODEL: 'llama3.2', CHAT_MODEL: 'llama3.3' } });
  system.start();
  t.equal(await exited, 1);
  t.ok(scope.isDone(), 'one listing serves both models');
  t.match(logs.find((line) => line.level === 60)?.msg, /model "llama3\.3" is not offered by http:\/\/llm\.test\/v1: it offers llama3\.2;/);
});

t.test('HTTP 429: the key counts as valid, and a warning says the models could not be checked', async (t) => {
  mockedProvider()
    .models()
    .reply(429, { error: { message: 'Rate limit reached' } });
  const { system, logs } = harness(t, { system: 'real', env: KEY });
  system.start();
  t.equal(await system.settled(), 'ready');
  t.match(
    logs.find((line) => line.level === 40)?.msg,
    /key for http:\/\/llm\.test\/v1 counts as valid, but it answered HTTP 429.*whether it offers gpt-4o-mini could not be checked/,
  );
});

t.test('credentials in the base URL never reach a log line', async (t) => {
  const { system, exited, logs } = harness(t, { system: 'real', env: { ...KEY, LLM_BASE_URL: 'http://user:sk-url-secret@llm.test/v1' } });
  system.start();
  t.equal(await exited, 1);
  const text = JSON.stringify(logs);
  t.match(text, /listing models at http:\/\/llm\.test\/v1 failed/);
  t.notMatch(text, /sk-url-secret|user:/);
});
