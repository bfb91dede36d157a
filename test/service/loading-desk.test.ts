import t, { type Test } from 'tap';
import { Bus } from '../../src/bus/bus.js';
import { buildApp } from '../../src/http/app.js';
import { fixedClock } from '../../src/runtime/clock.js';
import { openLoadingDesk } from '../../src/service/loading-desk.js';
import { capturedLogger } from '../support/captured-logger.js';

const NOW = '2026-11-23T09:00:00.000Z';

/** The real app over a bus that only the loading desk answers, as between listen and the system's load. */
async function loadingApp(t: Test) {
  const bus = new Bus({ clock: fixedClock(NOW) });
  const close = openLoadingDesk(bus, () => new Date(NOW));
  const app = await buildApp({
    bus,
    clock: fixedClock(NOW),
    logger: capturedLogger().logger,
    config: { maxMessageLength: 50, providerTimeoutMs: 50 },
    timeouts: { statusMs: 30, chatMs: 60 },
  });
  t.teardown(async () => {
    await app.close();
    bus.close();
  });
  return { app, close };
}

t.test('before the actor system is loaded, the server answers as the system does while initializing', async (t) => {
  const { app } = await loadingApp(t);
  const initialized = await app.inject({ method: 'GET', url: '/api/is_initialized' });
  t.equal(initialized.statusCode, 200);
  t.match(initialized.json(), { is_initialized: false, initializing: true, missing_llm_key: false, status: 'initializing' });
  const chat = await app.inject({ method: 'POST', url: '/api/chat', payload: { message: 'hello' } });
  t.equal(chat.statusCode, 503);
  t.match(chat.json(), { is_initialized: false, status: 'initializing', error: /not initialized yet/ });
  const availability = await app.inject({ method: 'GET', url: '/api/availability' });
  t.equal(availability.statusCode, 503);
  const status = await app.inject({ method: 'GET', url: '/status' });
  t.match(status.json(), { is_initialized: false, initializing: true, avatar_shape: 'Circle' });
  t.equal((await app.inject({ method: 'GET', url: '/health' })).statusCode, 200);
});

t.test('once closed (the system is there to answer), the desk answers nothing more', async (t) => {
  const { app, close } = await loadingApp(t);
  close();
  const status = await app.inject({ method: 'GET', url: '/status' });
  t.equal(status.statusCode, 500, 'nobody answers the bus: the status request times out');
});
