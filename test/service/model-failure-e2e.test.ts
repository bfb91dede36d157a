import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { DEFAULT_EMOTIONS } from '../../src/emotions/model.js';
import { completion, modelList } from '../support/chat-system-harness.js';
import { json, startFakeProvider, type ProviderBehaviour } from '../support/fake-provider.js';
import { eventually } from '../../testkit/eventually.js';
import { mockProviderOnly, startRealService } from '../support/real-service.js';

// ON_MODEL_FAILURE=exit (the default, docs/specification.md#states) with other visitors' chats in flight: every one of
// them gets its JSON answer before the process ends, over real sockets (no reset).
mockProviderOnly(t);

/** Until released, every completion waits; a message starting with "fail" fails at once. */
function heldProvider(): { behaviour: ProviderBehaviour; waiting: () => number } {
  let waiting = 0;
  return {
    waiting: () => waiting,
    behaviour: (request, body) => {
      if (request.url?.endsWith('/models')) return json(200, modelList());
      if (body?.messages.at(-1)?.content.startsWith('fail')) return json(500, { error: { message: 'model overloaded' } });
      waiting += 1;
      return new Promise(() => undefined);
    },
  };
}

/** Enough chats in flight that a reset connection, once seen when a provider call failed, would show. */
const IN_FLIGHT = 100;

t.test('one chat fails: every chat in flight gets a JSON 502, the state is flushed unchanged, then exit 1', async (t) => {
  const held = heldProvider();
  const provider = await startFakeProvider(t, held.behaviour);
  const service = await startRealService(t, {
    LLM_API_KEY: 'sk-test-exit',
    LLM_BASE_URL: provider.baseURL,
    // The held chats end with the failure, never by timing out: with the tests' 1 s, a loaded machine
    // took longer to get all of them to the model, and the first one answered 504.
    LLM_TIMEOUT_MS: '20000',
    DRIFT_INTERVAL_MS: '86400000',
  });
  await service.settled();
  const inFlight = Array.from({ length: IN_FLIGHT }, (_, i) => service.chat({ message: `visitor ${i} says hello` }));
  await eventually(`${IN_FLIGHT} chats waiting for the model`, () => held.waiting() === IN_FLIGHT);
  const failed = await service.chat({ message: 'fail: the model breaks on this one' });
  const others = await Promise.all(inFlight);
  t.equal(failed.status, 502);
  t.match(failed.body, { error: /language model failed/, status: 'error' });
  t.same(
    others.map((answer) => answer.status),
    Array.from({ length: IN_FLIGHT }, () => 502),
    'each chat in flight got its JSON answer, no connection reset',
  );
  t.ok(others.every((answer) => typeof answer.body.error === 'string'));
  t.equal(await service.exited, 1);
  const saved = JSON.parse(readFileSync(join(service.dir, 'emotions.json'), 'utf8')) as { emotions: object };
  t.same(saved.emotions, DEFAULT_EMOTIONS, 'the state was flushed, and no failed chat moved it');
  t.match(
    service.logs.find((line) => line.level === 60),
    { component: 'dialogue', msg: /dialogue: model gpt-4o-mini: InternalServerError \(HTTP 500\): 500 model overloaded/ },
  );
});

t.test('a provider timeout: that chat answers 504, the others in flight 502 or 504, then exit 1', async (t) => {
  const held = heldProvider();
  const provider = await startFakeProvider(t, held.behaviour);
  const service = await startRealService(t, {
    LLM_API_KEY: 'sk-test-exit',
    LLM_BASE_URL: provider.baseURL,
    // LLM_TIMEOUT_MS bounds each chat's tries together: long enough for the later chats to reach
    // the model before the first one times out, however loaded the machine.
    LLM_TIMEOUT_MS: '5000',
    DRIFT_INTERVAL_MS: '86400000',
  });
  await service.settled();
  const first = service.chat({ message: 'the first one times out' });
  await eventually('the chat waiting for the model', () => held.waiting() === 1);
  const later = Array.from({ length: 3 }, (_, i) => service.chat({ message: `then visitor ${i}` }));
  await eventually('every chat waiting for the model', () => held.waiting() === 4);
  const answers = [await first, ...(await Promise.all(later))];
  t.equal(answers[0]?.status, 504);
  t.match(answers[0]?.body, { error: /took too long/, status: 'error' });
  t.ok(
    answers.slice(1).every((answer) => answer.status === 502 || answer.status === 504),
    `JSON answers for all: ${answers.map((answer) => answer.status).join(', ')}`,
  );
  t.equal(await service.exited, 1);
});

t.test('a reply that arrives after the failure changes nothing', async (t) => {
  let release: () => void = () => undefined;
  const provider = await startFakeProvider(t, (request, body) => {
    if (request.url?.endsWith('/models')) return json(200, modelList());
    if (body?.messages.at(-1)?.content.startsWith('fail')) return json(500, { error: { message: 'broken' } });
    return new Promise((resolve) => (release = () => resolve(json(200, completion('late but fine')))));
  });
  // The slow chat must still be waiting when the failure comes, however loaded the machine.
  const service = await startRealService(t, {
    LLM_API_KEY: 'sk-test-exit',
    LLM_BASE_URL: provider.baseURL,
    LLM_TIMEOUT_MS: '20000',
    DRIFT_INTERVAL_MS: '86400000',
  });
  await service.settled();
  const slow = service.chat({ message: 'I love this so much' });
  await eventually('the prompt at the provider', () => provider.prompts.length === 1);
  t.equal((await service.chat({ message: 'fail now' })).status, 502);
  release();
  t.equal((await slow).status, 502);
  t.equal(await service.exited, 1);
  const events = readFileSync(join(service.dir, 'events.jsonl'), 'utf8');
  t.notMatch(events, '"type":"mood.changed"', 'nothing was committed');
});
