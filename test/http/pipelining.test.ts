import { once } from 'node:events';
import { Agent, createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import t, { type Test } from 'tap';
import { boundPipelining, type PipeliningBounds } from '../../src/http/pipelining.js';
import { eventually } from '../../testkit/eventually.js';

/** A server bounded at 2 requests in flight per connection (unless told); `/hold` is never answered. */
async function boundedServer(t: Test, bounds: Partial<PipeliningBounds> = { perConnection: 2 }): Promise<number> {
  const held: ServerResponse[] = [];
  const server = createServer((request, response) => {
    if (request.url === '/hold') held.push(response);
    else setImmediate(() => response.end('ok'));
  });
  boundPipelining(server, bounds);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.teardown(() => {
    for (const response of held) response.destroy();
    server.closeAllConnections();
    server.close();
  });
  return (server.address() as AddressInfo).port;
}

t.test('answered requests leave the count: a keep-alive connection asks one after another without end', async (t) => {
  const port = await boundedServer(t);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  t.teardown(() => agent.destroy());
  const sockets = new Set<unknown>();
  for (let n = 0; n < 50; n += 1) {
    const response = await new Promise<IncomingMessage>((resolve, reject) =>
      httpRequest({ port, host: '127.0.0.1', path: `/n${n}`, agent }, resolve)
        .on('error', reject)
        .end(),
    );
    sockets.add(response.socket);
    t.equal(response.statusCode, 200);
    response.resume();
    await once(response, 'end');
  }
  t.equal(sockets.size, 1, 'all on one connection');
});

t.test('past the bound of unanswered requests, the connection is closed', async (t) => {
  const port = await boundedServer(t);
  const socket = connect(port, '127.0.0.1');
  t.teardown(() => socket.destroy());
  await once(socket, 'connect');
  socket.write('GET /hold HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(3));
  socket.resume();
  await eventually('the connection closed', () => (socket.closed ? true : undefined));
  t.ok(socket.closed);
});

/** A raw connection that sends `text` at once; resolves once connected. */
async function pipelining(t: Test, port: number, text: string) {
  const socket = connect(port, '127.0.0.1');
  t.teardown(() => socket.destroy());
  socket.on('error', () => undefined);
  await once(socket, 'connect');
  socket.write(text);
  return socket;
}

t.test('past the bound of pipelined requests on all connections together, the one that goes over is closed', async (t) => {
  const port = await boundedServer(t, { perConnection: 100, total: 5 });
  // Two connections hold 1 + 3 and 1 + 2 pipelined: five in all.
  const first = await pipelining(t, port, 'GET /hold HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(4));
  await eventually('the first pipeline taken in', () => first.writableLength === 0 || undefined);
  const second = await pipelining(t, port, 'GET /hold HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(3));
  await eventually('the second pipeline taken in', () => second.writableLength === 0 || undefined);
  const third = await pipelining(t, port, 'GET /hold HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(2));
  third.resume();
  await eventually('the third connection closed', () => third.closed || undefined);
  t.notOk(first.closed || second.closed, 'the ones within the total stay');
  // A request that is not pipelined is never refused, whatever the total.
  const plain = await pipelining(t, port, 'GET /ok HTTP/1.1\r\nHost: x\r\n\r\n');
  let answer = '';
  plain.on('data', (chunk: Buffer) => (answer += chunk.toString()));
  await eventually('a plain request answered', () => /\r\n\r\nok$/.test(answer) || undefined);
});

t.test('a connection past the bound is not parsed further: the rest of its pipeline never becomes requests', async (t) => {
  const server = createServer((_request, response) => setImmediate(() => response.end('ok')));
  boundPipelining(server, { perConnection: 2 });
  let requests = 0;
  server.prependListener('request', () => (requests += 1));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  // 1,000 requests in one write: Node reads them in a chunk or two, and would make each a request object.
  const socket = await pipelining(t, (server.address() as AddressInfo).port, 'GET /n HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(1000));
  socket.resume();
  await eventually('the connection closed', () => socket.closed || undefined);
  t.ok(requests <= 3, `${requests} requests emitted: the bound's, and no more`);
});
