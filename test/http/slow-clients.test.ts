import { connect, type Socket } from 'node:net';
import t, { type Test } from 'tap';
import { harness } from '../support/harness.js';

/** Opens a raw socket and writes `chunks` one at a time, `everyMs` apart, until the server closes it. */
function trickle(port: number, chunks: string[], everyMs: number): { socket: Socket; closed: Promise<string> } {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (data) => (received += data.toString()));
  const timer = setInterval(() => {
    const next = chunks.shift();
    if (next !== undefined && socket.writable) socket.write(next);
  }, everyMs);
  const closed = new Promise<string>((resolve) =>
    socket.on('close', () => {
      clearInterval(timer);
      resolve(received);
    }),
  );
  return { socket, closed };
}

async function listening(t: Test): Promise<number> {
  const { app } = await harness(t, { system: 'fake', app: { clientTimeoutMs: 300 } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening on a port');
  return address.port;
}

// A bounded wait: the client would keep trickling for 60 s; the server must cut it off long before.
const BOUND_MS = 10_000;

t.test('headers that trickle in are cut off with 408 after the client timeout', async (t) => {
  const port = await listening(t);
  const header = `GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${'a'.repeat(600)}`;
  const { socket, closed } = trickle(port, header.split(''), 100);
  t.teardown(() => socket.destroy());
  const bound = new Promise<string>((resolve) => setTimeout(() => resolve('still open'), BOUND_MS).unref());
  const outcome = await Promise.race([closed, bound]);
  t.match(outcome, /^HTTP\/1\.1 408/, 'the server answered 408 and closed the socket');
});

t.test('a body that trickles in is cut off too', async (t) => {
  const port = await listening(t);
  const head = 'POST /api/chat HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 600\r\n\r\n';
  const { socket, closed } = trickle(port, [head, ...'{"message":"'.split(''), ...'x'.repeat(580).split('')], 100);
  t.teardown(() => socket.destroy());
  const bound = new Promise<string>((resolve) => setTimeout(() => resolve('still open'), BOUND_MS).unref());
  const outcome = await Promise.race([closed, bound]);
  t.match(outcome, /^HTTP\/1\.1 408/);
});

t.test('the default slow-client timeout is 10 s, as documented', async (t) => {
  // The tests above cut clients off after 0.3 s; the service's own default is read from the server
  // it configures instead of waited for, so the suite stays fast.
  const { app } = await harness(t, { system: 'fake', app: { clientTimeoutMs: undefined } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  t.equal(app.server.headersTimeout, 10_000, 'headers within 10 s');
  t.equal(app.server.requestTimeout, 10_000, 'the whole request within 10 s');
  const server = app.server as typeof app.server & { connectionsCheckingInterval: number };
  t.equal(server.connectionsCheckingInterval, 1000, 'checked every second, so a slow client goes within 11 s');
});
