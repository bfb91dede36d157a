import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Bindings, ChildLoggerOptions, Logger } from 'pino';

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
 * A request's own logger (bound to its `reqId`) only when debug lines are on. Binding a child costs
 * a pass of the redaction over its bindings on every request; with `DEBUG=0` nothing but errors is
 * logged per request, and the error handler names the request itself.
 */
export function requestLoggerFactory(
  this: unknown,
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  const debugOn = (logger as Partial<Logger>).isLevelEnabled?.('debug') ?? true;
  return debugOn ? logger.child(bindings, options) : logger;
}
