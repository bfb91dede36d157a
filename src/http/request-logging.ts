import { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';

/** Fastify's log lines for errors and streams, without its two lines per request. */
class NoRequestLines extends LogController {
  override incomingRequest(): void {}
  override requestCompleted(): void {}
}

/**
 * How the app logs. By default no line per request: the page polls every second and keeps an event
 * stream open, which wrote about 200 lines a minute per open tab and buried what mattered; Fastify
 * gets no logger of its own (no per-request child, listeners or log calls), while `request.log` is
 * still the service's logger, for the error handler. With `requests` (`LOG_REQUESTS=1`), Fastify
 * gets the service's logger: two info lines per request (method, URL, status, time; never a
 * body), each bound to its `reqId`.
 */
export function loggingOptions(
  logger: Logger,
  requests: boolean,
): Pick<FastifyServerOptions, 'loggerInstance' | 'logController' | 'childLoggerFactory'> {
  // Fastify's plugin types expect its base logger type; pino's Logger is one, with more on it.
  if (requests) return { loggerInstance: logger as FastifyBaseLogger, logController: new LogController() };
  return { logController: new NoRequestLines(), childLoggerFactory: () => logger as FastifyBaseLogger };
}

/** The `reqId` to add to a line written through `request.log`, unless that logger is bound to it already. */
export function requestIdFor(request: FastifyRequest): { reqId?: string } {
  return 'reqId' in (request.log as Logger).bindings() ? {} : { reqId: request.id };
}

/** Fastify's `Server listening at …` line, which it writes only through a logger of its own (`requests`). */
export function logListening(app: FastifyInstance, logger: Logger, requests: boolean): void {
  if (requests) return;
  app.addHook('onListen', function (done) {
    const address = this.server.address() as AddressInfo | null;
    if (address) {
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      logger.info(`Server listening at http://${host}:${address.port}`);
    }
    done();
  });
}
