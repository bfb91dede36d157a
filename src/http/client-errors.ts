import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';

const CLIENT_ERRORS: Record<string, { readonly status: number; readonly error: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, error: 'The request took too long to arrive' },
  HPE_HEADER_OVERFLOW: { status: 431, error: 'Request headers too large' },
};
const UNREADABLE = { status: 400, error: 'Malformed HTTP request' };

/**
 * Answers a request node's parser could not read (bad framing, headers over
 * the limit, too slow) before any route runs, then closes the socket. Unlike
 * fastify's default answer it says `Connection: close`: without it a
 * keep-alive client takes the socket back to its pool and its next request
 * dies with ECONNRESET.
 */
export function answerClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Duplex): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, error: message } = CLIENT_ERRORS[error.code ?? ''] ?? UNREADABLE;
  this.log.debug({ code: error.code, reason: error.message }, message);
  if (socket.writable) {
    const body = JSON.stringify({ error: message });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
