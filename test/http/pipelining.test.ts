import { once } from 'node:events';
import { Agent, createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import t, { type Test } from 'tap';
import { boundPipelining } from '../../src/http/pipelining.js';
import { eventually } from '../../testkit/eventually.js';

/** A server bounded at 2 requests in flight per connection; `/hold` is never answered. */
async function boundedServer(t: Test): Promise<number> {
  const held: ServerResponse[] = [];
  const server = createServer((request, response) => {
    if (request.url === '/hold') held.push(response);
    else setImmediate(() => response.end('ok'));
  });
  boundPipelining(server, 2);
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
