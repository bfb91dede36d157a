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

/** Node's HTTP parser as a connection holds it (internal): its callback for each request's head. */
interface ConnectionParser {
  onIncoming?: (this: unknown, request: IncomingMessage, keepAlive: boolean) => number;
}

/** What the parser's head callback returns to stop parsing the rest of the chunk (llhttp: "no body, upgrade"). */
const STOP_PARSING = 2;

/**
 * Bounds the requests pipelined on one connection, and on all of them together. Node parses every
 * request of a received chunk at once (a 64 KB chunk holds over a thousand `GET`s) and hands each to
 * the app, to be answered in turn into a socket nobody reads. A pipelined request (one that comes
 * before its connection's previous answer has finished) closes its connection, its requests dropped
 * before the app sees them (no routing, no log line), when the connection has `perConnection`
 * requests in flight, or when `total` pipelined requests are in flight on all connections: so the
 * work and memory a flood can claim stay small and everybody else is answered. A request that is
 * not pipelined (every browser's) is never refused. The check runs in the parser's own callback for
 * each request head where Node exposes it (`socket.parser.onIncoming`), whose answer stops the
 * parse of the rest of the chunk: otherwise the chunk's thousand other requests are still parsed,
 * each an object, before the close takes effect (the bench's pipelined flood: /health answered in
 * 0.6 s instead of 14 s). Where it is not there, the server's request listener, which it wraps
 * (Fastify's), checks the same before the app sees the request. (The unread answer bytes of a
 * connection are bounded by the count, and by Node, which stops reading a connection's requests
 * while its socket has more than its high-water mark waiting.)
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
  /** Whether a request that arrives on `socket` now goes past a bound. */
  const overBound = (socket: Socket): boolean => {
    const responses = unfinished.get(socket);
    if (responses === undefined) return false;
    while (responses.length > 0 && (responses[0]!.writableFinished || responses[0]!.destroyed)) responses.shift();
    return responses.length > 0 && (responses.length >= perConnection || pipelined >= total);
  };
  server.on('connection', (socket: Socket & { parser?: ConnectionParser }) => {
    const parser = socket.parser;
    const onIncoming = parser?.onIncoming;
    if (parser === undefined || typeof onIncoming !== 'function') return;
    parser.onIncoming = function (this: unknown, request: IncomingMessage, keepAlive: boolean): number {
      if (!overBound(socket)) return onIncoming.call(this, request, keepAlive);
      socket.destroy();
      return STOP_PARSING;
    };
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const { socket } = request;
    if (overBound(socket)) {
      socket.destroy();
      return;
    }
    let responses = unfinished.get(socket);
    if (responses === undefined) unfinished.set(socket, (responses = []));
    if (responses.length > 0) {
      pipelined += 1;
      response.once('close', () => (pipelined -= 1));
    }
    responses.push(response);
    for (const listener of listeners) listener.call(server, request, response);
  });
}
