import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { replayEventLog } from '../../src/replay/replay.js';
import { DEFAULT_EMOTIONS, processMessage, round2 } from '../../src/emotions/model.js';
import { appraise } from '../../src/appraisal/appraisal.js';
import { loadShippedModel } from '../../src/appraisal/shipped-model.js';
import { serializeState } from '../../src/persistence/emotions-file.js';
import { CookieJar } from '../support/cookie-jar.js';
import { startRealService, type Started } from '../support/real-service.js';
import { completion } from '../../testkit/provider-wire.js';
import { echoing, json, listeningProvider, type ChatCompletionBody, type ListeningProvider } from '../../testkit/provider-stand-in.js';
import { mockProviderHttp } from '../../testkit/provider-nock.js';

// The real composition root and actor system on 127.0.0.1, answered by an OpenAI-compatible
// stand-in on 127.0.0.1 that records every prompt it is sent.
mockProviderHttp(t, '127.0.0.1');

const NO_DRIFT = { DRIFT_INTERVAL_MS: '86400000' };

/** The turns of a prompt after the system prompt, without the message itself. */
const history = (prompt: ChatCompletionBody | undefined) => prompt?.messages.slice(1, -1).map((m) => `${m.role}: ${m.content}`);

/** Echoes the message back, so each reply says whose it was. */
const echo = echoing();

async function serviceWith(
  t: Parameters<typeof startRealService>[0],
  env: Record<string, string> = {},
): Promise<{ provider: ListeningProvider; service: Started }> {
  const provider = await listeningProvider(t, echo);
  const service = await startRealService(t, { LLM_API_KEY: 'sk-test-visitors', LLM_BASE_URL: provider.baseURL, ...NO_DRIFT, ...env });
  t.match(await service.settled(), { is_initialized: true });
  return { provider, service };
}

t.test('two visitors keep two conversations and share one mood', async (t) => {
  const { provider, service } = await serviceWith(t);
  const ada = new CookieJar(service.service.address);
  const bob = new CookieJar(service.service.address);

  const page = await ada.fetch('/');
  t.equal(page.status, 200);
  t.match(
    ada.setCookies[0],
    /^emotion_hub_session=[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax$/,
    'the page sets the session cookie',
  );
  t.equal(Buffer.from(ada.value!.split('.')[0]!, 'base64url').length, 16, '128 random bits');

  await ada.chat('I am Ada and I love chess');
  const bobFirst = await bob.chat('I am Bob and I hate rain');
  t.equal(bob.setCookies.length, 1, 'a chat without a cookie gets one');
  await ada.chat('what do I love?');
  const bobSecond = await bob.chat('what do I hate?');

  t.same(
    history(provider.prompts[2]),
    ['user: I am Ada and I love chess', 'assistant: You said: I am Ada and I love chess'],
    "Ada's prompt holds Ada's exchange only",
  );
  t.same(
    history(provider.prompts[3]),
    ['user: I am Bob and I hate rain', 'assistant: You said: I am Bob and I hate rain'],
    "Bob's prompt holds Bob's exchange only",
  );
  t.same(ada.setCookies.length, 1, 'a known session keeps its cookie');

  const avatar = (await (await ada.fetch('/api/avatar')).json()) as { emotions: object };
  t.same(avatar.emotions, bobSecond.body.emotions, 'one mood: the last chat of either visitor shows for both');
  t.notSame(bobFirst.body.emotions, bobSecond.body.emotions, "Ada's chat in between moved Bob's mood too");

  await service.service.close();
  const written = readFileSync(join(service.dir, 'events.jsonl'), 'utf8') + JSON.stringify(service.logs);
  t.notMatch(written, ada.value!, "Ada's session id is in neither the event log nor the log");
  t.notMatch(written, bob.value!, "nor Bob's");
  t.notMatch(readFileSync(join(service.dir, 'emotions.json'), 'utf8'), /chess|rain/, 'user text never reaches the emotions file');
});

t.test('a client without a cookie still chats, with a fresh session each time', async (t) => {
  const { provider, service } = await serviceWith(t);
  const first = await service.chat({ message: 'remember the number 7' });
  const second = await service.chat({ message: 'which number?' });
  t.equal(first.status, 200);
  t.equal(second.status, 200);
  t.same(history(provider.prompts[1]), [], 'no cookie sent back, no conversation');
  const malformed = await fetch(`${service.service.address}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: 'emotion_hub_session=not-a-session-id' },
    body: JSON.stringify({ message: 'hi' }),
  });
  t.match(
    malformed.headers.get('set-cookie'),
    /^emotion_hub_session=[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43};/,
    'an id of the wrong form is replaced',
  );
});

t.test('50 concurrent chats that all succeed compose: none is lost, whatever order they commit in', async (t) => {
  const { service } = await serviceWith(t);
  const visitors = Array.from({ length: 50 }, () => new CookieJar(service.service.address));
  // One message for all: the same change fifty times gives the same mood in any order.
  const message = 'a note for the record';
  const replies = await Promise.all(visitors.map((visitor) => visitor.chat(message)));
  t.ok(
    replies.every((reply) => reply.status === 200),
    'all 50 succeed',
  );
  const reading = appraise(await loadShippedModel(), message);
  let emotions = DEFAULT_EMOTIONS;
  for (let i = 0; i < 50; i++) emotions = processMessage(emotions, reading);
  const expected = round2(emotions.joy);
  t.ok(expected < round2(processMessage(DEFAULT_EMOTIONS, reading).joy), 'each chat moves joy, so a lost one would show');
  const avatar = await service.get('/api/avatar');
  t.equal(avatar.body.emotions.joy, expected, 'none of the 50 is lost');
  t.equal(Math.min(...replies.map((reply) => reply.body.emotions.joy)), expected, 'the last committed chat answers with it');
  await service.service.close();
  const replayed = await replayEventLog(join(service.dir, 'events.jsonl'));
  t.equal(serializeState(replayed), readFileSync(join(service.dir, 'emotions.json'), 'utf8'), 'the event log replays to the file');
});

t.test('ON_MODEL_FAILURE=stay: failed and timed-out chats change nothing, the next chat tries again', async (t) => {
  const { provider, service } = await serviceWith(t, { ON_MODEL_FAILURE: 'stay', LLM_TIMEOUT_MS: '300' });
  const visitor = new CookieJar(service.service.address);
  t.equal((await visitor.chat('hello, I am happy')).status, 200);

  let release: () => void = () => undefined;
  provider.behaviour = (request, body) => {
    const message = body?.messages.at(-1)?.content ?? '';
    if (message.startsWith('fail')) return json(500, { error: { message: 'model overloaded' } });
    if (message.startsWith('slow')) return new Promise((resolve) => (release = () => resolve(json(200, completion('too late')))));
    return echo(request, body);
  };
  const slow = visitor.chat('slow: this makes me furious');
  const failed = await visitor.chat('fail: I hate everything');
  t.equal(failed.status, 502);
  t.match(failed.body, { error: /language model failed.*changed nothing/, status: 'error' });
  t.notMatch(JSON.stringify(failed.body), 'overloaded', 'the provider detail stays in the log');
  const other = await new CookieJar(service.service.address).chat('another visitor says hi');
  t.equal(other.status, 200, "a slow call does not take another visitor's chat down");
  provider.behaviour = (request, body) =>
    body?.messages.at(-1)?.content.startsWith('slow') ? new Promise(() => undefined) : echo(request, body);
  const timedOut = await slow;
  release();
  t.equal(timedOut.status, 504);
  t.match(timedOut.body, { error: /took too long.*changed nothing/, status: 'error' });
  t.same(service.exits, [], 'the service stays up');
  t.match((await service.get('/api/is_initialized')).body, { is_initialized: true });

  const afterFailures = await service.get('/api/avatar');
  t.same(afterFailures.body.emotions, other.body.emotions, 'only the successful chat moved the emotions');
  const retry = await visitor.chat('and now?');
  t.equal(retry.status, 200, 'the next chat tries the model again');
  t.same(
    history(provider.prompts.at(-1)),
    ['user: hello, I am happy', 'assistant: You said: hello, I am happy'],
    'the failed exchanges never joined the conversation',
  );
});

t.test('ON_MODEL_FAILURE=stay: a failing provider leaves the emotions file byte for byte and /api/avatar as they were', async (t) => {
  const { provider, service } = await serviceWith(t, { ON_MODEL_FAILURE: 'stay' });
  t.equal((await service.chat({ message: 'a good start' })).status, 200);
  await service.service.bus.request({ type: 'persistence.flush.requested' }, 'persistence.saved', 2000);
  const file = join(service.dir, 'emotions.json');
  const before = readFileSync(file);
  const avatarBefore = (await service.get('/api/avatar')).body;
  provider.behaviour = () => json(500, { error: { message: 'model overloaded' } });
  for (const message of ['I am so angry', 'this is terrible', 'I love it', 'neutral words']) {
    t.equal((await service.chat({ message })).status, 502);
  }
  t.same((await service.get('/api/avatar')).body, avatarBefore, '/api/avatar is unchanged, last_updated included');
  await service.service.close();
  t.same(readFileSync(file), before, 'the emotions file is byte-equal');
  const replayed = await replayEventLog(join(service.dir, 'events.jsonl'));
  t.equal(serializeState(replayed), before.toString('utf8'), 'a log with failed chats replays to exactly that file');
});
