import type {} from '@fastify/sse';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { Logger } from '../runtime/logger.js';

/**
 * How many bytes may wait in the process for one listener (beyond what the kernel holds) before it
 * is dropped: about fifty mood frames. A reader that reads never comes near it; one that stopped
 * reading would otherwise cost every frame, for ever.
 */
export const LISTENER_BUFFER_BYTES = 16 * 1024;

/** At shutdown, how long an ended stream may take to go out before its socket is cut. */
export const LISTENER_CLOSE_GRACE_MS = 500;

/**
 * The app's long-lived event streams (`GET /api/events`, `GET /api/chat/feed`, a turn's resume), and
 * the two rules they share: a listener whose unsent frames pass `bufferBytes` is dropped (its socket
 * destroyed, one `warn` line; EventSource reconnects with `Last-Event-ID`), and at shutdown every
 * stream ends and a socket that has not taken its end within `LISTENER_CLOSE_GRACE_MS` is destroyed,
 * so neither a slow reader's memory nor its socket outlives its welcome.
 */
export class LongStreams {
  readonly #open = new Set<ServerResponse>();
  readonly #logger: Logger;
  readonly #bufferBytes: number;

  constructor(logger: Logger, bufferBytes: number = LISTENER_BUFFER_BYTES) {
    this.#logger = logger;
    this.#bufferBytes = bufferBytes;
  }

  /**
   * Sends the stream's headers and keeps it open (heartbeats) until it is ended here or by the
   * client; `onClose` runs once it closes. A `HEAD` gets the headers alone and its answer ends:
   * `undefined`, nothing to write.
   */
  open(request: FastifyRequest, reply: FastifyReply, onClose: () => void = () => undefined): ServerResponse | undefined {
    const socket = reply.raw;
    if (request.method === 'HEAD') {
      reply.sse.sendHeaders();
      socket.end();
      return undefined;
    }
    reply.sse.keepAlive();
    reply.sse.sendHeaders();
    this.#open.add(socket);
    reply.sse.onClose(() => {
      this.#open.delete(socket);
      onClose();
    });
    return socket;
  }

  /** Writes `frame` to an open stream, or drops the stream when its reader lets too much wait. */
  write(socket: ServerResponse, frame: string): void {
    if (socket.writableEnded || socket.destroyed) return;
    if (socket.writableLength <= this.#bufferBytes) {
      socket.write(frame);
      return;
    }
    this.#open.delete(socket);
    this.#logger.warn(
      { unsentBytes: socket.writableLength, url: socket.req?.url, remoteAddress: socket.socket?.remoteAddress },
      'event-stream listener dropped: it stopped reading (it may reconnect and get the current state)',
    );
    socket.destroy();
  }

  /** Ends every open stream; a socket that does not take its end in time is cut. */
  closeAll(): void {
    for (const socket of this.#open) {
      socket.end();
      setTimeout(() => socket.destroy(), LISTENER_CLOSE_GRACE_MS).unref();
    }
    this.#open.clear();
  }
}
