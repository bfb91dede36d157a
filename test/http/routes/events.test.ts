import t from 'tap';
import { standInProvider } from '../../support/chat-system-harness.js';
import { eventually } from '../../../testkit/eventually.js';
import { SseReader } from '../../support/sse-client.js';
import { served } from '../../support/streaming.js';

t.test('GET /api/events: the avatar body at once, then a frame with an id per mood change, heartbeats, closed on shutdown', async (t) => {
  const provider = standInProvider('Lovely!');
  const { visitor, app, advance, address, system } = await served(t, { fetch: provider.fetch, heartbeatMs: 50 });
  const response = await fetch(`${address}/api/events`);
  t.equal(response.status, 200);
  t.match(response.headers.get('content-type'), /^text\/event-stream/);
  const reader = new SseReader(response.body!);
  const avatar = await (await fetch(`${address}/api/avatar`)).json();
  const [first] = await eventually('the first frame', () => reader.frames.length >= 1 && reader.frames);
  t.same(JSON.parse(first!.data), avatar, 'the first frame is GET /api/avatar');

  t.equal((await visitor.chat('I love this wonderful day')).status, 200);
  await eventually('the chat frame', () => reader.frames.length >= 2);
  const afterChat = await (await fetch(`${address}/api/avatar`)).json();
  t.same(JSON.parse(reader.frames[1]!.data), afterChat, 'a committed chat is pushed');

  advance(10_000); // a drift tick
  await eventually('the drift frame', () => reader.frames.length >= 3);
  t.same(JSON.parse(reader.frames[2]!.data), await (await fetch(`${address}/api/avatar`)).json(), 'a drift is pushed');
  const ids = reader.frames.slice(1).map((frame) => Number(frame.id));
  t.ok(
    ids.every((id, index) => Number.isInteger(id) && (index === 0 || id > ids[index - 1]!)),
    'each change has a growing id',
  );

  await eventually('a heartbeat comment', () => reader.comments >= 1);
  const closing = app.close();
  await reader.done;
  await closing;
  t.ok(reader.ended, 'the stream closes on shutdown, and the server does not wait for the listener');
  await system.stop(); // its last write lands before the test's directory goes
});
