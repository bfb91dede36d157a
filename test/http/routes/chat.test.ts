import t from 'tap';
import { chat, harness } from '../../support/harness.js';

const NO_MESSAGE = { error: 'No message provided' };

t.test('ready: the reply, the avatar shape, the emotions rounded to 2 decimals, is_initialized true', async (t) => {
  const { app, system } = await harness(t, { system: 'fake' });
  system.chatBehaviour = {
    kind: 'reply',
    response: 'Glad to hear it!',
    avatarShape: 'Triangle',
    emotions: { joy: 0.71666, sadness: 0.004, anger: 0.1, fear: 0.0951, curiosity: 1 },
  };
  const response = await chat(app, { message: 'I love this' });
  t.equal(response.statusCode, 200);
  t.match(response.headers['content-type'], /^application\/json/);
  t.same(response.json(), {
    response: 'Glad to hear it!',
    avatar_shape: 'Triangle',
    emotions: { joy: 0.72, sadness: 0, anger: 0.1, fear: 0.1, curiosity: 1 },
    is_initialized: true,
  });
  t.same(system.messages, ['I love this'], 'the message reached the system as typed');
});

t.test('the message is sent as typed, surrounding spaces and all', async (t) => {
  const { app, system } = await harness(t, { system: 'fake' });
  const response = await chat(app, { message: '  hi there \n' });
  t.equal(response.statusCode, 200);
  t.same(system.messages, ['  hi there \n']);
});

t.test('initializing: 503 with is_initialized false and status initializing', async (t) => {
  const { app, system } = await harness(t, { system: 'fake' });
  system.phase = 'initializing';
  const response = await chat(app, { message: 'hello' });
  t.equal(response.statusCode, 503);
  t.match(response.headers['content-type'], /^application\/json/);
  const body = response.json();
  t.same(Object.keys(body).sort(), ['error', 'is_initialized', 'status']);
  t.match(body, { error: /not initialized/, is_initialized: false, status: 'initializing' });
  t.same(system.messages, [], 'the system refused it: nothing was accepted');
});

t.test('key missing: 503 with status missing_llm_key and is_initialized false', async (t) => {
  const { app, system } = await harness(t, { system: 'fake' });
  system.phase = 'keyMissing';
  const response = await chat(app, { message: 'hello' });
  t.equal(response.statusCode, 503);
  const body = response.json();
  t.same(Object.keys(body).sort(), ['error', 'is_initialized', 'status']);
  t.match(body, { error: /LLM_API_KEY.*missing/, status: 'missing_llm_key', is_initialized: false });
  t.same(system.messages, []);
});

t.test("a stop before the system is ready is the phase's 503, and the system is not asked", async (t) => {
  const { app, bus, system } = await harness(t, { system: 'fake' });
  system.phase = 'initializing';
  const asked: string[] = [];
  bus.all().subscribe((event) => asked.push(event.type));
  const response = await app.inject({ method: 'POST', url: '/api/chat/stop', payload: {} });
  t.equal(response.statusCode, 503);
  t.match(response.json(), { error: /not initialized/, status: 'initializing', is_initialized: false });
  t.same(asked, [], 'no chat.stop.requested: the phase the system announced answers');
});

t.test('the state check comes before any input check, whatever the body', async (t) => {
  const { app, system } = await harness(t, { system: 'fake' });
  const bodies = [
    { payload: {} },
    { payload: { message: '' } },
    { payload: { message: 5 } },
    { payload: { message: 'x'.repeat(51) } },
    { body: '{broken', headers: { 'content-type': 'application/json' } },
    { body: 'hello', headers: { 'content-type': 'text/plain' } },
    { payload: { message: 'x'.repeat(40_000) } },
    {},
  ];
  for (const [phase, status] of [
    ['initializing', 'initializing'],
    ['keyMissing', 'missing_llm_key'],
  ] as const) {
    system.phase = phase;
    for (const request of bodies) {
      const response = await app.inject({ method: 'POST', url: '/api/chat', ...request });
      t.equal(response.statusCode, 503, `${phase}: ${JSON.stringify(request)}`);
      t.equal(response.json().status, status);
    }
  }
  t.same(system.messages, []);
});

t.test('a missing, non-string, empty or blank message is 400 "No message provided"', async (t) => {
  const { app, system } = await harness(t, { system: 'fake' });
  const payloads: unknown[] = [
    {},
    { message: null },
    { message: 5 },
    { message: true },
    { message: ['hi'] },
    { message: { text: 'hi' } },
    { message: '' },
    { message: '   ' },
    { message: '\n\t ' },
    { text: 'hi' },
    [],
    ['hi'],
  ];
  for (const payload of payloads) {
    const response = await chat(app, payload);
    t.equal(response.statusCode, 400, JSON.stringify(payload));
    t.same(response.json(), NO_MESSAGE, JSON.stringify(payload));
  }
  for (const body of ['null', '"hi"', '42', '', '   ']) {
    const response = await app.inject({ method: 'POST', url: '/api/chat', body, headers: { 'content-type': 'application/json' } });
    t.equal(response.statusCode, 400, `raw ${JSON.stringify(body)}`);
    t.same(response.json(), NO_MESSAGE);
  }
  const bare = await app.inject({ method: 'POST', url: '/api/chat' });
  t.equal(bare.statusCode, 400, 'no body at all');
  t.same(bare.json(), NO_MESSAGE);
  t.same(system.messages, [], 'a bad request never reaches the system');
});

t.test('malformed JSON is a 400 with an error string, and reaches nothing', async (t) => {
  const { app, system } = await harness(t, { system: 'fake' });
  for (const body of ['{"message": "hi"', "{'message':'hi'}", '{"__proto__":{"polluted":1},"message":"hi"}']) {
    const response = await app.inject({ method: 'POST', url: '/api/chat', body, headers: { 'content-type': 'application/json' } });
    t.equal(response.statusCode, 400, body);
    t.match(response.json(), { error: /^Malformed JSON/ });
  }
  t.same(system.messages, []);
});

t.test('a body that is not JSON is 415', async (t) => {
  const { app, system } = await harness(t, { system: 'fake' });
  const cases = [
    { body: 'message=hi', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
    { body: '{"message":"hi"}', headers: { 'content-type': 'text/plain' } },
    { body: 'hi' },
  ];
  for (const request of cases) {
    const response = await app.inject({ method: 'POST', url: '/api/chat', ...request });
    t.equal(response.statusCode, 415, JSON.stringify(request));
    t.same(response.json(), { error: 'Content-Type must be application/json' });
  }
  t.same(system.messages, []);
});

t.test('JSON media types with parameters or a +json suffix are JSON', async (t) => {
  const { app, system } = await harness(t, { system: 'fake' });
  for (const type of ['application/json; charset=utf-8', 'Application/JSON', 'application/vnd.api+json']) {
    const response = await app.inject({
      method: 'POST',
      url: '/api/chat',
      body: '{"message":"hi"}',
      headers: { 'content-type': type },
    });
    t.equal(response.statusCode, 200, type);
  }
  t.equal(system.messages.length, 3);
});

t.test('an over-long message is 413 naming the limit; the limit itself passes', async (t) => {
  const { app, system } = await harness(t, { system: 'fake' });
  const tooLong = await chat(app, { message: 'x'.repeat(51) });
  t.equal(tooLong.statusCode, 413);
  t.same(tooLong.json(), { error: 'Message too long: at most 50 characters' });
  t.same(system.messages, []);
  const atLimit = await chat(app, { message: '😀'.repeat(50) });
  t.equal(atLimit.statusCode, 200, 'characters, not UTF-16 units or bytes');
});

t.test('a body over the size limit is 413 before it is read', async (t) => {
  const { app, system } = await harness(t, { system: 'fake' });
  const response = await chat(app, { message: 'x'.repeat(40_000) });
  t.equal(response.statusCode, 413);
  t.same(response.json(), { error: 'Request body too large' });
  t.same(system.messages, []);
});

t.test('rejections from the system map to their status and body', async (t) => {
  const { app, system } = await harness(t, { system: 'fake' });
  const cases = [
    { reason: 'initializing', statusCode: 503, body: { is_initialized: false, status: 'initializing' } },
    { reason: 'missing_llm_key', statusCode: 503, body: { status: 'missing_llm_key', is_initialized: false } },
    { reason: 'provider_failed', statusCode: 502, body: { status: 'error' } },
    { reason: 'provider_timeout', statusCode: 504, body: { status: 'error', error: /took too long.*changed nothing/ } },
    { reason: 'system_failed', statusCode: 503, body: { status: 'error', is_initialized: false, error: /failed and is shutting down/ } },
    { reason: 'unavailable', statusCode: 503, body: { status: 'error', is_initialized: true } },
  ] as const;
  for (const { reason, statusCode, body } of cases) {
    system.chatBehaviour = { kind: 'reject', reason, error: 'secret provider detail sk-123' };
    const response = await chat(app, { message: 'hello' });
    t.equal(response.statusCode, statusCode, reason);
    t.match(response.json(), { error: String, ...body }, reason);
    t.notMatch(response.body, /sk-123/, 'the provider detail stays in the log');
  }
});

t.test('a reply that does not come in time is 504 with a JSON error', async (t) => {
  const { app, system } = await harness(t, { system: 'fake' });
  system.chatBehaviour = { kind: 'silent' };
  const response = await chat(app, { message: 'hello' });
  t.equal(response.statusCode, 504);
  t.match(response.json(), { error: /took too long/, status: 'error' });
});

t.test('a failed system refuses the chat with 503; no status round trip comes first', async (t) => {
  const { app, bus, system } = await harness(t, { system: 'fake' });
  system.phase = 'failed';
  const asked: string[] = [];
  bus.all().subscribe((event) => asked.push(event.type));
  const failed = await chat(app, { message: 'hello' });
  t.equal(failed.statusCode, 503);
  t.match(failed.json(), { error: /unavailable/, status: 'error' });
  t.same(system.messages, []);
  t.same(asked, ['chat.requested', 'chat.rejected'], 'the system checks the phase once, when the chat arrives');
});

t.test('a closed bus is 503, not a crash', async (t) => {
  const { app, bus } = await harness(t, { system: 'fake' });
  bus.close();
  const response = await chat(app, { message: 'hello' });
  t.equal(response.statusCode, 503);
  t.match(response.json(), { error: String, status: 'error' });
});

t.test('a chat whose bus closes on the way is 503', async (t) => {
  const { app, bus, system } = await harness(t, { system: 'fake' });
  system.chatBehaviour = { kind: 'silent' };
  const subscription = bus.on('chat.requested').subscribe(() => queueMicrotask(() => bus.close()));
  t.teardown(() => subscription.unsubscribe());
  const response = await chat(app, { message: 'hello' });
  t.equal(response.statusCode, 503);
  t.match(response.json(), { error: /unavailable/ });
});
