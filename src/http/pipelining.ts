import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Requests one connection may have in flight. Browsers never pipeline; a client that sends more at
 * once without reading the answers is not a browser.
 */
export const MAX_IN_FLIGHT_PER_CONNECTION = 16;

type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * Bounds the requests pipelined on one connection. Node parses every request of a received chunk
 * at once (a 64 KB chunk holds over a thousand `GET`s) and hands each to the app, to be answered in
 * turn into a socket nobody reads. The connection that goes past the bound is closed and its
 * requests dropped before the app sees them (no routing, no log line), so the work and memory one
 * connection can claim stay small and everybody else is answered. It wraps the server's request
 * listener (Fastify's), as no hook of the app runs before its per-request logging.
 */
export function boundPipelining(server: Server, max = MAX_IN_FLIGHT_PER_CONNECTION): void {
  const listeners = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  // Each connection's responses not yet finished, oldest first. HTTP/1.1 answers a connection's
  // requests in order, so the finished ones leave from the front, checked when the next request
  // comes: no listener added and removed on every response (that showed in the benchmark).
  const unfinished = new WeakMap<Socket, ServerResponse[]>();
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const { socket } = request;
    let responses = unfinished.get(socket);
    if (responses === undefined) unfinished.set(socket, (responses = []));
    while (responses.length > 0 && (responses[0]!.writableFinished || responses[0]!.destroyed)) responses.shift();
    if (responses.length >= max) {
      socket.destroy();
      return;
    }
    responses.push(response);
    for (const listener of listeners) listener.call(server, request, response);
  });
}
