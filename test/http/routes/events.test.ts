import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { setImmediate } from 'node:timers/promises';
import t from 'tap';
import type { EventInput } from '../../../src/bus/events.js';
import { eventually } from '../../../testkit/eventually.js';
import { SseReader } from '../../support/sse-client.js';
import { harness } from '../../support/harness.js';
import { healthy, providerStandIn } from '../../../testkit/provider-stand-in.js';

t.test('GET /api/events: the avatar body at once, then a frame with an id per mood change, heartbeats, closed on shutdown', async (t) => {
  const provider = providerStandIn(healthy('Lovely!'));
  const { visitor, app, advance, address, system } = await harness(t, {
    system: 'real',
    served: true,
    fetch: provider.fetch,
    heartbeatMs: 50,
  });
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

t.test(
  'GET /api/events and GET /api/chat/feed: a listener that stops reading is dropped with less than 17 KiB unsent; a reader keeps every frame',
  async (t) => {
    const { app, bus, logs } = await harness(t, { system: 'fake', app: { heartbeatMs: 60_000 } });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const reader = new SseReader((await fetch(`${address}/api/events`)).body!);
    await eventually('the reader’s first frame', () => reader.frames.length >= 1);
    const stalled = [await stalledListener(address, '/api/events'), await stalledListener(address, '/api/chat/feed')];
    const closed = stalled.map((socket) => once(socket, 'close'));
    const drops = () => logs().filter((line) => /listener dropped/.test(String(line.msg)));

    // The kernel takes some megabytes on loopback before anything waits in the process (more on a
    // busy machine, whose buffers it grows): up to 100,000 frames (about 29 MB, past Linux's largest
    // socket buffers) pass that, one per turn of the event loop as chats would make them, in
    // bursts the reader keeps up with.
    let sent = 0;
    for (let burst = 0; burst < 200 && drops().length < 2; burst += 1) {
      for (let i = 0; i < 500; i += 1) {
        bus.publish(moodChange((sent += 1)));
        await setImmediate();
      }
      await eventually(`the reader to have read frame ${sent}`, () => reader.frames.at(-1)?.id === String(sent));
    }
    t.same(
      drops()
        .map((line) => line.url)
        .sort(),
      ['/api/chat/feed', '/api/events'],
      'each stalled listener dropped, once, and the reader not',
    );
    for (const drop of drops()) {
      // The default bound, as a value: 16 KiB and at most a frame more, not whatever the constant says.
      t.ok(Number(drop.unsentBytes) > 16 * 1024, `${drop.url}: dropped once its unsent frames passed 16 KiB`);
      t.ok(Number(drop.unsentBytes) < 17 * 1024, `${drop.url}: with less than 17 KiB unsent`);
    }
    for (const socket of stalled) socket.resume(); // read what the kernel held, then see the server's close
    await within(5000, 'the dropped sockets’ close', Promise.all(closed));
    t.pass('the server closed the stalled sockets');
    const ids = reader.frames.slice(1).map((frame) => Number(frame.id));
    t.same(
      ids,
      Array.from({ length: ids.length }, (_, index) => ids[0]! + index),
      'the reader got every frame, ids one by one',
    );
  },
);

t.test('the long-lived streams: at shutdown a listener that does not read is cut, and the server closes', async (t) => {
  // No drop here: the listeners are still there, their kernel buffers full, when the server closes.
  const { app, bus, logs } = await harness(t, { system: 'fake', app: { heartbeatMs: 60_000, eventStreamBufferBytes: 64 * 1024 * 1024 } });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const stalled = [await stalledListener(address, '/api/events'), await stalledListener(address, '/api/chat/feed')];
  const closed = stalled.map((socket) => once(socket, 'close'));
  // Fill the kernel and leave megabytes waiting in the process.
  for (let i = 0; i < 25_000; i += 1) {
    bus.publish(moodChange(i));
    await setImmediate();
  }
  await within(5000, 'app.close() with listeners that do not read', app.close());
  t.notOk(
    logs().some((line) => /listener dropped/.test(String(line.msg))),
    'they were not dropped before',
  );
  for (const socket of stalled) socket.resume();
  await within(5000, 'the stalled sockets’ close', Promise.all(closed));
  t.pass('the stalled sockets were closed');
});

t.test('HEAD on a stream route answers its headers and closes', async (t) => {
  const { app } = await harness(t, { system: 'fake', app: { heartbeatMs: 60_000 } });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  for (const path of ['/api/events', '/api/chat/feed']) {
    const socket = connect(Number(new URL(address).port), '127.0.0.1');
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    // A second request behind it on the same connection: answered only once the HEAD's answer has ended.
    socket.write(`HEAD ${path} HTTP/1.1\r\nHost: x\r\n\r\nGET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    await within(5000, `HEAD ${path} and the request after it`, once(socket, 'close'));
    t.match(
      text,
      /^HTTP\/1\.1 200 [\s\S]*content-type: text\/event-stream[\s\S]*\r\n\r\nHTTP\/1\.1 200 /i,
      `HEAD ${path}: headers, then the next answer`,
    );
    t.notMatch(text, /^data: /m, 'no frame');
  }
});

/** A drift change of the mood, as the emotions actor publishes it; `n` makes each one distinct. */
function moodChange(n: number): EventInput {
  const at = new Date(Date.UTC(2026, 10, 21, 10) + n).toISOString();
  const emotions = { joy: 0.5, sadness: 0.2, anger: 0.1, fear: 0.1, curiosity: (n % 100) / 100 };
  return {
    type: 'mood.changed',
    change: { kind: 'drift', deltas: { joy: 0 }, at },
    emotions,
    avatarShape: 'Circle',
    sentiment: { sentiment: 'neutral', positive: 0, negative: 0 },
    lastUpdated: at,
  } as EventInput;
}

/** `promise`, or a failure naming what it waited for after `ms`. */
async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A raw socket on an event stream that reads the head and the first frame, then never reads again. */
async function stalledListener(address: string, path: string): Promise<Socket> {
  const socket = connect(Number(new URL(address).port), '127.0.0.1');
  socket.on('error', () => undefined);
  socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
  await within(5000, `the stalled listener’s first frame on ${path}`, once(socket, 'data'));
  socket.pause();
  return socket;
}
