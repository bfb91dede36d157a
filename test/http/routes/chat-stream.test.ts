import { once } from 'node:events';
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { eventually } from '../../../testkit/eventually.js';
import t from 'tap';
import type { BusEvent } from '../../../src/bus/events.js';

/** The mood changes a chat committed. */
const chatChanges = (events: BusEvent[]) => ofType(events, 'mood.changed').filter(({ change }) => change.kind === 'chat');
import { SseReader } from '../../support/sse-client.js';
import { START, harness } from '../../support/harness.js';
import { COMPLETION_END, completion, completionFrame, completionStream, modelList } from '../../../testkit/provider-wire.js';
import { ofType } from '../../support/bus-events.js';
import { streamedChat } from '../../support/streaming.js';
import { mockProviderHttp, mockedProvider } from '../../../testkit/provider-nock.js';

mockProviderHttp(t, '127.0.0.1');
// Every harness system validates its key once.
t.beforeEach(() => void mockedProvider().models().reply(200, modelList()));

t.test('a streamed chat: a token frame per piece, then done with the JSON body once the mood committed', async (t) => {
  const { visitor, events, bus } = await harness(t, { system: 'real', served: true });
  let asked: { stream?: boolean } | undefined;
  mockedProvider()
    .completions((body) => ((asked = body), true))
    .reply(200, completionStream('Glad ', 'to **hear** ', 'it!'), { 'content-type': 'text/event-stream' });
  const response = await streamedChat(visitor, 'I love this sunny day');
  t.equal(response.status, 200);
  t.match(response.headers.get('content-type'), /^text\/event-stream/);
  t.match(response.headers.get('set-cookie'), /^emotion_hub_session=/, 'a new visitor gets its session on a stream too');
  const reader = new SseReader(response.body!);
  await reader.done;
  t.equal(asked?.stream, true, 'the provider is asked to stream');
  t.same(reader.data('token'), [{ text: 'Glad ' }, { text: 'to **hear** ' }, { text: 'it!' }]);
  const [done] = reader.data('done');
  t.match(done, { response: 'Glad to **hear** it!', avatar_shape: String, is_initialized: true });
  t.match(done.appraisal, { strongest: 'joy', reading: 'joy' }, 'the done frame says how the message read');
  t.same(done.appraisal.cues, ['love']);
  t.same(Object.keys(done.appraisal.emotions), ['joy', 'sadness', 'anger', 'fear', 'curiosity']);
  t.equal(reader.frames.at(-1)?.event, 'done', 'done is the last frame');
  const committed = chatChanges(events);
  t.equal(committed.length, 1, 'the mood committed once');
  const status = await bus.request({ type: 'status.requested' }, 'status.reported', 500);
  t.same(done.emotions, Object.fromEntries(Object.entries(status.emotions).map(([name, value]) => [name, Math.round(value * 100) / 100])));
  const tokenIndex = events.findIndex((event) => event.type === 'chat.token');
  t.ok(tokenIndex < events.indexOf(committed[0]!), 'tokens travel on the bus before the commit');
  const history = await (await visitor.fetch('/api/history')).json();
  t.match(history.messages, [
    { role: 'user', content: 'I love this sunny day', at: START },
    { role: 'assistant', content: 'Glad to **hear** it!', at: START },
  ]);
});

t.test('pieces that come close together, each in its own tick, all reach the visitor before done', async (t) => {
  const { visitor } = await harness(t, { system: 'real', served: true });
  const pieces = ['One ', 'two ', 'three ', 'four ', 'five.'];
  // Each piece a tick after the last: all but the first wait for the socket's window (src/http/paced-writes.ts),
  // and the done frame, which comes within it, must take them out first.
  async function* apart() {
    for (const piece of pieces) {
      yield completionFrame(piece);
      await new Promise(setImmediate);
    }
    yield COMPLETION_END;
  }
  mockedProvider()
    .completions()
    .reply(200, () => Readable.from(apart()), { 'content-type': 'text/event-stream' });
  const response = await streamedChat(visitor, 'tell me a count');
  const reader = new SseReader(response.body!);
  await reader.done;
  t.same(
    reader.frames.map(({ event }) => event),
    [...pieces.map(() => 'token'), 'done'],
  );
  t.same(
    reader.data('token').map(({ text }: { text: string }) => text),
    pieces,
  );
});

t.test('a JSON chat publishes no token events and answers as before', async (t) => {
  const { visitor, events } = await harness(t, { system: 'real', served: true });
  mockedProvider().completions().reply(200, completion('Plain.'));
  const { status, body } = await visitor.chat('hello');
  t.equal(status, 200);
  t.match(body, { response: 'Plain.', is_initialized: true });
  t.equal(ofType(events, 'chat.token').length, 0);
});

t.test('rejections found before the stream stay plain JSON with their statuses', async (t) => {
  const { visitor, system } = await harness(t, { system: 'real', served: true, start: false });
  const early = await streamedChat(visitor, 'hello');
  t.equal(early.status, 503);
  t.match(early.headers.get('content-type'), /application\/json/);
  t.match(await early.json(), { error: /not initialized/, status: 'initializing' });
  system.start();
  await system.settled();
  for (const [message, status, error] of [
    ['', 400, 'No message provided'],
    ['x'.repeat(5000), 413, /too long/],
  ] as const) {
    const response = await streamedChat(visitor, message);
    t.equal(response.status, status);
    t.match(await response.json(), { error });
  }
});

t.test('an empty streamed reply is a model failure (stay: event: error, nothing commits)', async (t) => {
  const { visitor, events } = await harness(t, { system: 'real', served: true, env: { ON_MODEL_FAILURE: 'stay' } });
  mockedProvider().completions().reply(200, completionStream('  '), { 'content-type': 'text/event-stream' });
  const reader = new SseReader((await streamedChat(visitor, 'hello')).body!);
  await reader.done;
  t.match(reader.data('error'), [{ code: 'PROVIDER_FAILED' }]);
  t.equal(chatChanges(events).length, 0);
});

t.test('Connection: close is honoured by a streamed chat: the socket closes once done is out', async (t) => {
  const { address } = await harness(t, { system: 'real', served: true });
  mockedProvider().completions().reply(200, completionStream('Glad ', 'to hear it!'), { 'content-type': 'text/event-stream' });
  const socket = connect(Number(new URL(address).port), '127.0.0.1');
  const body = JSON.stringify({ message: 'I love this sunny day' });
  socket.write(
    'POST /api/chat HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\nContent-Type: application/json\r\n' +
      `Connection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  const closed = once(socket, 'close');
  // The client keeps its side open: only the server's own close ends the socket.
  await eventually('the server to close the socket after done', () => socket.readableEnded, { timeoutMs: 5000 });
  await closed;
  t.match(received, /^HTTP\/1\.1 200[\s\S]*\r\nconnection: close\r\n/i, 'the head says so');
  t.match(received, /event: done\n/, 'done went out before the close');
});
