import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { setImmediate } from 'node:timers/promises';
import t from 'tap';
import type { EventInput } from '../../../src/bus/events.js';
import { LISTENER_BUFFER_BYTES } from '../../../src/http/routes/events.js';
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
  'GET /api/events: a listener that stops reading is dropped once its unsent frames pass the bound; a reader keeps every frame',
  async (t) => {
    const { app, bus, logs } = await harness(t, { system: 'fake', app: { heartbeatMs: 60_000 } });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const reader = new SseReader((await fetch(`${address}/api/events`)).body!);
    await eventually('the reader’s first frame', () => reader.frames.length >= 1);
    const stalled = await stalledListener(address);
    const closed = once(stalled, 'close');

    // The kernel takes some megabytes on loopback before anything waits in the process (more on a
    // busy machine, whose buffers it grows): up to 100,000 frames (about 29 MB, past Linux's largest
    // socket buffers) pass that, one per turn of the event loop as chats would make them, in
    // bursts the reader keeps up with.
    let sent = 0;
    for (let burst = 0; burst < 200 && !logs().some((line) => /listener dropped/.test(String(line.msg))); burst += 1) {
      for (let i = 0; i < 500; i += 1) {
        bus.publish(moodChange((sent += 1)));
        await setImmediate();
      }
      await eventually(`the reader to have read frame ${sent}`, () => reader.frames.at(-1)?.id === String(sent));
    }
    const drops = logs().filter((line) => /listener dropped/.test(String(line.msg)));
    t.equal(drops.length, 1, 'the stalled listener was dropped, once, and the reader was not');
    t.ok(Number(drops[0]?.unsentBytes) > LISTENER_BUFFER_BYTES, 'when its unsent frames passed the bound');
    t.ok(Number(drops[0]?.unsentBytes) < LISTENER_BUFFER_BYTES + 1024, 'and not far past it: the buffer is bounded');
    stalled.resume(); // read what the kernel held, then see the server's close
    await within(5000, 'the dropped socket’s close', closed);
    t.pass('the server closed the stalled socket');
    const ids = reader.frames.slice(1).map((frame) => Number(frame.id));
    t.same(
      ids,
      Array.from({ length: ids.length }, (_, index) => ids[0]! + index),
      'the reader got every frame, ids one by one',
    );
  },
);

t.test('GET /api/events: at shutdown a listener that does not read is cut, and the server closes', async (t) => {
  // No drop here: the listener is still there, its kernel buffers full, when the server closes.
  const { app, bus, logs } = await harness(t, { system: 'fake', app: { heartbeatMs: 60_000, eventStreamBufferBytes: 64 * 1024 * 1024 } });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const stalled = await stalledListener(address);
  const closed = once(stalled, 'close');
  // Fill the kernel and leave megabytes waiting in the process.
  for (let i = 0; i < 25_000; i += 1) {
    bus.publish(moodChange(i));
    await setImmediate();
  }
  await within(5000, 'app.close() with a listener that does not read', app.close());
  t.notOk(
    logs().some((line) => /listener dropped/.test(String(line.msg))),
    'it was not dropped before',
  );
  stalled.resume();
  await within(5000, 'the stalled socket’s close', closed);
  t.pass('the stalled socket was closed');
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

/** A raw socket on `GET /api/events` that reads the head and the first frame, then never reads again. */
async function stalledListener(address: string): Promise<Socket> {
  const socket = connect(Number(new URL(address).port), '127.0.0.1');
  socket.on('error', () => undefined);
  socket.write('GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n');
  await within(5000, 'the stalled listener’s first frame', once(socket, 'data'));
  socket.pause();
  return socket;
}
