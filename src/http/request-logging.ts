import {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';

/**
 * Fastify's request log lines, moved from info to debug so that `DEBUG=0`
 * quiets them. They carry method, URL, status and time: never a body.
 * Failures are still logged by the app's error handler.
 */
export class DebugRequestLogging extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(_error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    request.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/**
 * How the app logs. With debug lines on, Fastify gets the service's logger: each request has a child
 * bound to its `reqId` and two debug lines. With them off, Fastify gets no logger of its own, so it
 * skips the per-request child, response listeners and log calls that would write nothing (they show
 * in the benchmark), while `request.log` is still the service's logger, for the error handler.
 */
export function loggingOptions(logger: Logger): Pick<FastifyServerOptions, 'loggerInstance' | 'logController' | 'childLoggerFactory'> {
  // Fastify's plugin types expect its base logger type; pino's Logger is one, with more on it.
  if (logger.isLevelEnabled('debug')) return { loggerInstance: logger as FastifyBaseLogger, logController: new DebugRequestLogging() };
  return { logController: new DebugRequestLogging(), childLoggerFactory: () => logger as FastifyBaseLogger };
}

/** The `reqId` to add to a line written through `request.log`, unless that logger is bound to it already. */
export function requestIdFor(request: FastifyRequest): { reqId?: string } {
  return 'reqId' in (request.log as Logger).bindings() ? {} : { reqId: request.id };
}

/** Fastify's `Server listening at …` line, which it writes only through a logger of its own. */
export function logListening(app: FastifyInstance, logger: Logger): void {
  if (logger.isLevelEnabled('debug')) return;
  app.addHook('onListen', function (done) {
    const address = this.server.address() as AddressInfo | null;
    if (address) {
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      logger.info(`Server listening at http://${host}:${address.port}`);
    }
    done();
  });
}
