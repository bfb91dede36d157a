import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { ACCEPTING_MESSAGE, CONNECTION_MESSAGE } from './supervisor-messages.js';

/** The connections a supervised child serves, handed over by its supervisor. */
export interface HandedConnections {
  /** Resolves once every connection has closed, or at once when none is open. */
  closed(): Promise<void>;
}

/**
 * Under `hub serve --supervise` the supervisor holds the port (src/supervisor/connection-desk.ts):
 * each connection it hands over is served here as if this server had accepted it, and tracked,
 * since a server that never listened does not wait for its connections when it closes. Tells the
 * supervisor it takes connections.
 */
export function takeHandedConnections(server: Server): HandedConnections {
  const open = new Set<Socket>();
  let allClosed: (() => void) | undefined;
  process.on('message', (message: unknown, socket: unknown) => {
    if ((message as { type?: unknown } | null)?.type !== CONNECTION_MESSAGE.type || socket === undefined) return;
    const connection = socket as Socket;
    open.add(connection);
    connection.once('close', () => {
      open.delete(connection);
      if (open.size === 0) allClosed?.();
    });
    server.emit('connection', connection);
  });
  process.send?.(ACCEPTING_MESSAGE);
  return {
    closed: () =>
      open.size === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            allClosed = resolve;
          }),
  };
}
