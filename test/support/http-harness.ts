import type { FastifyInstance } from 'fastify';
import { Bus } from '../../src/bus/bus.js';
import { buildApp, type AppOptions } from '../../src/http/app.js';
import { fixedClock } from '../../src/runtime/clock.js';
import { capturedLogger } from './captured-logger.js';
import { FakeSystem } from './fake-system.js';

export const NOW = '2026-11-21T10:00:00.000Z';

export interface Harness {
  readonly app: FastifyInstance;
  readonly bus: Bus;
  readonly system: FakeSystem;
  /** Every log line the app wrote, parsed. */
  readonly logs: () => Array<Record<string, unknown>>;
  /** The log as written, before parsing (which would hide a repeated key). */
  readonly logText: () => string;
}

/** The real app over a bus answered by the fake system, with tiny timeouts and a captured log. */
export async function harness(
  t: { teardown(fn: () => unknown): void },
  overrides: Partial<AppOptions> = {},
  /** Whether the captured logger writes debug lines (request lines among them). */
  debugLines = true,
): Promise<Harness> {
  const bus = new Bus({ clock: fixedClock(NOW) });
  const log = capturedLogger({ debug: debugLines });
  const app = await buildApp({
    bus,
    clock: fixedClock(NOW),
    logger: log.logger,
    config: { maxMessageLength: 50, providerTimeoutMs: 50 },
    timeouts: { statusMs: 30, chatMs: 60 },
    ...overrides,
  });
  // After the app, as the service creates the system after it: the app hears its phase.
  const system = new FakeSystem(bus);
  t.teardown(async () => {
    await app.close();
    system.stop();
    bus.close();
  });
  return { app, bus, system, logs: log.lines, logText: log.text };
}

/** A POST /api/chat with a JSON body. */
export function chat(app: FastifyInstance, payload: unknown) {
  return app.inject({ method: 'POST', url: '/api/chat', payload: payload as object });
}
