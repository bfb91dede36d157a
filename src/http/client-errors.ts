import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { ERRORS, type ErrorCode } from '../errors/catalogue.js';

/** Node's parser errors with an answer of their own; any other is a malformed request. */
const CLIENT_ERRORS: Readonly<Record<string, ErrorCode>> = {
  ERR_HTTP_REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
  HPE_HEADER_OVERFLOW: 'HEADERS_TOO_LARGE',
};

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
  const { statusCode, message } = ERRORS[CLIENT_ERRORS[error.code ?? ''] ?? 'MALFORMED_REQUEST'];
  this.log.debug({ code: error.code, reason: error.message }, message);
  if (socket.writable) {
    const body = JSON.stringify({ error: message });
    socket.write(
      `HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
