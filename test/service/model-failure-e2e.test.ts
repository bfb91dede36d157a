import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { DEFAULT_EMOTIONS } from '../../src/emotions/model.js';
import { eventually } from '../../testkit/eventually.js';
import { startRealService } from '../support/real-service.js';
import { SseReader } from '../support/sse-client.js';
import { completion, modelList } from '../../testkit/provider-wire.js';
import { json, listeningProvider, type ProviderBehaviour } from '../../testkit/provider-stand-in.js';
import { mockProviderHttp } from '../../testkit/provider-nock.js';

// ON_MODEL_FAILURE=exit (the default, docs/specification.md#states) with other visitors' chats in flight: the failed
// chat fails alone; the others run to their end (their replies are healthy), new chats get 503 with
// Retry-After meanwhile, then the state is flushed and the process exits 1; over real sockets (no reset).
mockProviderHttp(t, '127.0.0.1');

/** Until released, every completion waits; a message starting with "fail" fails at once. */
function heldProvider(): { behaviour: ProviderBehaviour; waiting: () => number; release: () => void } {
  const held: (() => void)[] = [];
  return {
    waiting: () => held.length,
    release: () => {
      for (const answer of held.splice(0)) answer();
    },
    behaviour: (request, body) => {
      if (request.url?.endsWith('/models')) return json(200, modelList());
      if (body?.messages.at(-1)?.content.startsWith('fail')) return json(500, { error: { message: 'model overloaded' } });
      return new Promise((resolve) => held.push(() => resolve(json(200, completion('Glad to hear it.')))));
    },
  };
}

/** A ready service whose provider holds every completion until released; the chats' deadline far off. */
async function heldService(t: Test) {
  const held = heldProvider();
  const provider = await listeningProvider(t, held.behaviour);
  const service = await startRealService(t, {
    LLM_API_KEY: 'sk-test-exit',
    LLM_BASE_URL: provider.baseURL,
    LLM_TIMEOUT_MS: '20000',
    DRIFT_INTERVAL_MS: '86400000',
  });
  await service.settled();
  return { held, service };
}

/** Enough chats in flight that a reset connection, once seen when a provider call failed, would show. */
const IN_FLIGHT = 100;

t.test(
  'one chat fails: it alone answers 502; the chats in flight end healthy, new chats get 503 + Retry-After, then flush and exit 1',
  async (t) => {
    const { held, service } = await heldService(t);
    const inFlight = Array.from({ length: IN_FLIGHT }, (_, i) => service.chat({ message: `visitor ${i} is happy` }));
    await eventually(`${IN_FLIGHT} chats waiting for the model`, () => held.waiting() === IN_FLIGHT);
    const failed = await service.chat({ message: 'fail: the model breaks on this one' });
    t.equal(failed.status, 502);
    t.match(failed.body, { error: /language model failed/, status: 'error' });

    const refused = await fetch(`${service.service.address}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'a new visitor' }),
    });
    t.equal(refused.status, 503, 'no new chat once the service is going down');
    t.equal(refused.headers.get('retry-after'), '5');
    t.match(await refused.json(), { error: /shutting down/, status: 'error', is_initialized: false });
    t.same(service.exits, [], 'no exit while chats are in flight');

    held.release();
    const others = await Promise.all(inFlight);
    t.same(
      others.map((answer) => answer.status),
      Array.from({ length: IN_FLIGHT }, () => 200),
      "each chat in flight got its own healthy reply: none was cut by another visitor's failure",
    );
    t.ok(others.every((answer) => answer.body.response === 'Glad to hear it.'));
    t.equal(await service.exited, 1);
    const saved = JSON.parse(readFileSync(join(service.dir, 'emotions.json'), 'utf8')) as { emotions: typeof DEFAULT_EMOTIONS };
    t.not(saved.emotions.joy, DEFAULT_EMOTIONS.joy, 'the chats that ended committed, and the flush came after them');
    t.match(
      service.logs.find((line) => line.level === 60),
      {
        component: 'dialogue',
        msg: /chat model replies: model gpt-4o-mini: InternalServerError \(HTTP 500\): 500 model overloaded; exiting with status 1 once the chats in flight have ended/,
      },
    );
  },
);

t.test("a streamed reply in flight is not cut by another visitor's failure: its stream ends with done", async (t) => {
  const { held, service } = await heldService(t);
  const response = await fetch(`${service.service.address}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ message: 'tell me something nice' }),
  });
  const reader = new SseReader(response.body!);
  await eventually('the streamed chat at the model', () => held.waiting() === 1);
  t.equal((await service.chat({ message: 'fail here' })).status, 502);
  held.release();
  await reader.done;
  t.equal(reader.data('error').length, 0);
  t.match(reader.data('done'), [{ response: 'Glad to hear it.', is_initialized: true }]);
  t.equal(
    reader
      .data('token')
      .map((piece) => piece.text)
      .join(''),
    'Glad to hear it.',
  );
  t.equal(await service.exited, 1);
});

t.test('a provider timeout: that chat answers 504, the others in flight run to their own end, then exit 1', async (t) => {
  const held = heldProvider();
  const provider = await listeningProvider(t, held.behaviour);
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
