import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Requests one connection may have in flight. Browsers never pipeline; a client that sends more at
 * once without reading the answers is not a browser.
 */
export const MAX_IN_FLIGHT_PER_CONNECTION = 16;

/** Pipelined requests (sent before the previous answer finished) in flight on all connections together. */
export const MAX_PIPELINED_TOTAL = 1024;

export interface PipeliningBounds {
  readonly perConnection: number;
  readonly total: number;
}

const DEFAULT_BOUNDS: PipeliningBounds = {
  perConnection: MAX_IN_FLIGHT_PER_CONNECTION,
  total: MAX_PIPELINED_TOTAL,
};

type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * Bounds the requests pipelined on one connection, and on all of them together. Node parses every
 * request of a received chunk at once (a 64 KB chunk holds over a thousand `GET`s) and hands each to
 * the app, to be answered in turn into a socket nobody reads. A pipelined request (one that comes
 * before its connection's previous answer has finished) closes its connection, its requests dropped
 * before the app sees them (no routing, no log line), when the connection has `perConnection`
 * requests in flight, or when `total` pipelined requests are in flight on all connections: so the
 * work and memory a flood can claim stay small and everybody else is answered. (The unread answer
 * bytes of a connection are bounded by that count, and by Node, which stops parsing a connection's
 * requests while its socket has more than its high-water mark waiting.) A request that is not pipelined (every browser's) is never refused. It wraps
 * the server's request listener (Fastify's), as no hook of the app runs before its per-request logging.
 */
export function boundPipelining(server: Server, bounds: Partial<PipeliningBounds> = {}): void {
  const { perConnection, total } = { ...DEFAULT_BOUNDS, ...bounds };
  const listeners = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  // Each connection's responses not yet finished, oldest first. HTTP/1.1 answers a connection's
  // requests in order, so the finished ones leave from the front, checked when the next request
  // comes: no listener added and removed on every response (that showed in the benchmark). Only a
  // pipelined response, which no browser makes, is counted in the total by its `close`.
  const unfinished = new WeakMap<Socket, ServerResponse[]>();
  let pipelined = 0;
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const { socket } = request;
    let responses = unfinished.get(socket);
    if (responses === undefined) unfinished.set(socket, (responses = []));
    while (responses.length > 0 && (responses[0]!.writableFinished || responses[0]!.destroyed)) responses.shift();
    if (responses.length > 0) {
      if (responses.length >= perConnection || pipelined >= total) {
        socket.destroy();
        return;
      }
      pipelined += 1;
      response.once('close', () => (pipelined -= 1));
    }
    responses.push(response);
    for (const listener of listeners) listener.call(server, request, response);
  });
}
