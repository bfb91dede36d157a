import type { FastifyPluginAsync } from 'fastify';
import { isoStamps, type Clock } from '../../runtime/clock.js';
import { httpError } from '../errors.js';
import { availabilityBody, isInitializedBody, statusBody, statusOf, unreachableSystemBody } from '../present.js';
import { healthResponse, statusResponse } from '../response-schemas.js';
import type { SystemClient } from '../system-client.js';

export interface SystemStatusRoutesOptions {
  readonly system: SystemClient;
  readonly clock: Clock;
}

const NO_ANSWER = 'The system does not answer.';

/** The read-only endpoints about the system's state: health, availability, initialization, status. */
export const systemStatusRoutes: FastifyPluginAsync<SystemStatusRoutesOptions> = async (app, { system, clock }) => {
  // Health is the process, not the system: it never asks the bus, so it answers even when the system is stuck.
  const stamp = isoStamps(clock);
  app.get('/health', { schema: { response: healthResponse } }, async () => ({ status: 'healthy', timestamp: stamp() }));

  app.get('/api/availability', async (_request, reply) => {
    const phase = await system.status().then(
      (status) => status.phase,
      () => undefined,
    );
    if (phase === undefined) {
      return reply
        .code(503)
        .send({ available: false, is_initialized: false, status: statusOf('failed'), message: NO_ANSWER, error: NO_ANSWER });
    }
    const body = availabilityBody(phase);
    return reply.code(body.available ? 200 : 503).send(body);
  });

  // Always 200: it is the page's startup poll, and its body says everything.
  app.get('/api/is_initialized', async () =>
    system.status().then(
      (status) => isInitializedBody(status.phase),
      () => unreachableSystemBody(NO_ANSWER),
    ),
  );

  app.get('/status', { schema: { response: statusResponse } }, async () => {
    const status = await system.status().catch((cause: unknown) => {
      throw httpError('STATUS_FAILED', { cause });
    });
    return statusBody(status);
  });
};
