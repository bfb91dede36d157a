import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { ACCEPTING_MESSAGE, CONNECTION_MESSAGE } from './supervisor-messages.js';

/**
 * How long a supervised child keeps an idle connection (Fastify's default is 72 s): the
 * `Keep-Alive: timeout=5` it sends makes a Node client (undici) let one go after 3 s idle, so a
 * failed child can wait for its clients to let every connection go instead of cutting one on which
 * a request may be on its way. A browser keeps one longer, and sends a request again when a reused
 * connection closes under it.
 */
export const HANDED_KEEP_ALIVE_MS = 5000;

/** How long a failed supervised child waits for its clients to let their connections go before it closes them. */
export const HANDED_LINGER_MS = HANDED_KEEP_ALIVE_MS + 1000;

/** The connections a supervised child serves, handed over by its supervisor. */
export interface HandedConnections {
  /** Resolves once every connection has closed, or at once when none is open. */
  closed(): Promise<void>;
  /** Takes no more connections (the service has closed). */
  stop(): void;
}

/**
 * Under `hub serve --supervise` the supervisor holds the port (src/supervisor/connection-desk.ts):
 * each connection it hands over is served here as if this server had accepted it, and tracked,
 * since a server that never listened does not wait for its connections when it closes. Keeps idle
 * connections `HANDED_KEEP_ALIVE_MS`. Tells the supervisor it takes connections.
 */
export function takeHandedConnections(server: Server): HandedConnections {
  server.keepAliveTimeout = HANDED_KEEP_ALIVE_MS;
  const open = new Set<Socket>();
  let allClosed: (() => void) | undefined;
  const take = (message: unknown, socket: unknown): void => {
    if ((message as { type?: unknown } | null)?.type !== CONNECTION_MESSAGE.type || socket === undefined) return;
    const connection = socket as Socket;
    open.add(connection);
    connection.once('close', () => {
      open.delete(connection);
      if (open.size === 0) allClosed?.();
    });
    server.emit('connection', connection);
  };
  process.on('message', take);
  process.send?.(ACCEPTING_MESSAGE);
  return {
    stop: () => void process.removeListener('message', take),
    closed: () =>
      open.size === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            allClosed = resolve;
          }),
  };
}
