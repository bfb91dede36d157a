import t from 'tap';
import { START, harness } from '../../support/harness.js';

const JSON_TYPE = /^application\/json/;

t.test('GET /health: always 200 healthy with an ISO 8601 timestamp, even when the system is silent', async (t) => {
  const { app, system } = await harness(t, { system: 'fake' });
  system.answersStatus = false;
  const response = await app.inject('/health');
  t.equal(response.statusCode, 200);
  t.match(response.headers['content-type'], JSON_TYPE);
  t.same(response.json(), { status: 'healthy', timestamp: START });
});

t.test('GET /api/availability in every state', async (t) => {
  const { app, system } = await harness(t, { system: 'fake' });
  const ready = await app.inject('/api/availability');
  t.equal(ready.statusCode, 200);
  t.same(ready.json(), { available: true, is_initialized: true, status: 'ready' });

  system.phase = 'initializing';
  const initializing = await app.inject('/api/availability');
  t.equal(initializing.statusCode, 503);
  t.match(initializing.headers['content-type'], JSON_TYPE);
  t.match(initializing.json(), {
    available: false,
    is_initialized: false,
    status: 'initializing',
    message: /still initializing/,
    error: /still initializing/,
  });

  system.phase = 'keyMissing';
  const keyMissing = await app.inject('/api/availability');
  t.equal(keyMissing.statusCode, 503);
  t.match(keyMissing.json(), {
    available: false,
    is_initialized: false,
    status: 'initializing',
    missing_llm_key: true,
    message: /LLM_API_KEY/,
  });

  system.phase = 'failed';
  t.match((await app.inject('/api/availability')).json(), { available: false, status: 'error' });

  system.answersStatus = false;
  const silent = await app.inject('/api/availability');
  t.equal(silent.statusCode, 503);
  t.match(silent.json(), { available: false, is_initialized: false, status: 'error', error: /does not answer/ });
});

t.test('GET /api/is_initialized: 200 in every state, with the fields docs/specification.md#endpoints gives each', async (t) => {
  const { app, system } = await harness(t, { system: 'fake' });
  const ready = await app.inject('/api/is_initialized');
  t.equal(ready.statusCode, 200);
  t.match(ready.headers['content-type'], JSON_TYPE);
  t.same(ready.json(), { is_initialized: true, initializing: false, missing_llm_key: false, status: 'ready' });

  system.phase = 'initializing';
  const initializing = await app.inject('/api/is_initialized');
  t.equal(initializing.statusCode, 200);
  t.match(initializing.json(), {
    is_initialized: false,
    initializing: true,
    missing_llm_key: false,
    status: 'initializing',
    message: String,
  });

  system.phase = 'keyMissing';
  const keyMissing = await app.inject('/api/is_initialized');
  t.equal(keyMissing.statusCode, 200);
  t.match(keyMissing.json(), {
    is_initialized: false,
    initializing: false,
    missing_llm_key: true,
    error_page: '/error',
    status: 'missing_api_key',
  });

  system.phase = 'failed';
  const failed = await app.inject('/api/is_initialized');
  t.equal(failed.statusCode, 200);
  t.match(failed.json(), { is_initialized: false, initializing: false, error_page: '/error', status: 'error', error: String });

  system.answersStatus = false;
  const silent = await app.inject('/api/is_initialized');
  t.equal(silent.statusCode, 200);
  t.match(silent.json(), { is_initialized: false, status: 'error', error: /does not answer/ });
});

t.test('GET /status in every state: booleans, rounded emotions, the shape', async (t) => {
  const { app, system } = await harness(t, { system: 'fake' });
  system.avatarShape = 'Square';
  const emotions = { joy: 0.5, sadness: 0.12, anger: 0.1, fear: 0.1, curiosity: 0.46 };
  const expected = {
    ready: { is_initialized: true, initializing: false, missing_llm_key: false },
    initializing: { is_initialized: false, initializing: true, missing_llm_key: false },
    keyMissing: { is_initialized: false, initializing: false, missing_llm_key: true },
    failed: { is_initialized: false, initializing: false, missing_llm_key: false },
  } as const;
  for (const phase of ['ready', 'initializing', 'keyMissing', 'failed'] as const) {
    system.phase = phase;
    const response = await app.inject('/status');
    t.equal(response.statusCode, 200, phase);
    t.match(response.headers['content-type'], JSON_TYPE);
    t.same(response.json(), { ...expected[phase], emotions, avatar_shape: 'Square' }, phase);
  }
  system.answersStatus = false;
  const silent = await app.inject('/status');
  t.equal(silent.statusCode, 500);
  t.same(silent.json(), { error: 'Failed to get the system status' });
});

t.test('query strings are ignored: no endpoint takes parameters', async (t) => {
  const { app } = await harness(t, { system: 'fake' });
  const response = await app.inject('/api/is_initialized?verbose=1');
  t.equal(response.statusCode, 200);
  t.equal(response.json().is_initialized, true);
});
