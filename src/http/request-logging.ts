import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

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
