import type { ChildProcess } from 'node:child_process';
import { createServer, type Server, type Socket } from 'node:net';
import type { Logger } from '../runtime/logger.js';
import { CONNECTION_MESSAGE } from '../service/supervisor-messages.js';

/** The supervisor cannot listen on the port it was given (in use, not allowed). */
export class DeskListenError extends Error {
  override readonly name = 'DeskListenError';
}

/**
 * The listening socket of `hub serve --supervise`, held by the supervisor for the children's whole
 * succession: it accepts each connection without reading from it (`pauseOnConnect`) and hands it
 * to the child that serves now (`child.send(message, socket)`), or holds it until a child takes
 * connections. So the port never closes: while one child drains after a model failure, the next
 * already answers, and a connection made during a restart waits instead of being refused.
 */
export class ConnectionDesk {
  readonly #server: Server;
  readonly #logger: Logger;
  readonly #waiting: Socket[] = [];
  #serving: ChildProcess | undefined;

  private constructor(server: Server, logger: Logger) {
    this.#server = server;
    this.#logger = logger;
    server.on('connection', (socket) => this.#hand(socket));
  }

  /** Listens on `host:port`, saying so as the service itself would (`Server listening at …`). */
  static async open(port: number, host: string, logger: Logger): Promise<ConnectionDesk> {
    const server = createServer({ pauseOnConnect: true });
    await new Promise<void>((resolve, reject) => {
      const refused = (error: Error): void =>
        reject(new DeskListenError(`cannot listen on ${host}:${port} (${error.message})`, { cause: error }));
      server.once('error', refused);
      server.listen(port, host, () => {
        server.off('error', refused);
        resolve();
      });
    });
    const address = server.address();
    if (address !== null && typeof address === 'object') {
      const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      logger.info(`Server listening at http://${shown}:${address.port}`);
    }
    return new ConnectionDesk(server, logger);
  }

  /** The port it listens on (the one asked for, or the one given for port 0). */
  get port(): number {
    const address = this.#server.address();
    return address !== null && typeof address === 'object' ? address.port : 0;
  }

  /** From now on new connections go to `child` (the ones held meanwhile first). */
  serveWith(child: ChildProcess): void {
    this.#serving = child;
    for (const socket of this.#waiting.splice(0)) this.#hand(socket);
  }

  /** `child` takes no more connections (it drains, or it ended): new ones wait for the next. */
  stopServingWith(child: ChildProcess): void {
    if (this.#serving === child) this.#serving = undefined;
  }

  /** Stops listening and drops the connections still held. */
  close(): void {
    this.#serving = undefined;
    for (const socket of this.#waiting.splice(0)) socket.destroy();
    this.#server.close();
  }

  #hand(socket: Socket): void {
    const child = this.#serving;
    if (child === undefined || !child.connected) {
      this.#waiting.push(socket);
      socket.once('close', () => {
        const at = this.#waiting.indexOf(socket);
        if (at !== -1) this.#waiting.splice(at, 1);
      });
      return;
    }
    child.send(CONNECTION_MESSAGE, socket, { keepOpen: false }, (error) => {
      if (error === null) return;
      // The child went away meanwhile: the connection waits for the next one.
      this.#logger.debug({ err: error }, 'a connection could not be handed to the service; it waits for the next');
      this.stopServingWith(child);
      this.#hand(socket);
    });
  }
}
