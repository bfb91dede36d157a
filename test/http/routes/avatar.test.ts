import t from 'tap';
import { harness } from '../../support/harness.js';

t.test('ready: shape, rounded emotions and sentiment, is_initialized, ISO last_updated, status ready', async (t) => {
  const { app, system } = await harness(t, { system: 'fake' });
  system.avatarShape = 'Triangle';
  system.emotions = { joy: 0.8765, sadness: 0.001, anger: 0.335, fear: 0.2, curiosity: 0.999 };
  system.sentiment = { sentiment: 'positive', positive: 0.6666, negative: 0.3333 };
  system.lastUpdated = '2026-11-21T09:59:58.123Z';
  const response = await app.inject('/api/avatar');
  t.equal(response.statusCode, 200);
  t.match(response.headers['content-type'], /^application\/json/);
  t.same(response.json(), {
    avatar_shape: 'Triangle',
    emotions: { joy: 0.88, sadness: 0, anger: 0.34, fear: 0.2, curiosity: 1 },
    sentiment: { sentiment: 'positive', positive: 0.67, negative: 0.33 },
    is_initialized: true,
    last_updated: '2026-11-21T09:59:58.123Z',
    status: 'ready',
  });
  t.equal(new Date(response.json().last_updated).toISOString(), response.json().last_updated);
});

t.test('successive polls follow the state: the same body while it holds, the new one once it changes', async (t) => {
  const { app, system } = await harness(t, { system: 'fake' });
  const first = await app.inject('/api/avatar');
  t.equal((await app.inject('/api/avatar')).body, first.body, 'unchanged state, same bytes');
  system.emotions = { joy: 0.1, sadness: 0.9, anger: 0.2, fear: 0.3, curiosity: 0.4 };
  system.avatarShape = 'Square';
  system.sentiment = { sentiment: 'negative', positive: 0.1, negative: 0.9 };
  system.lastUpdated = '2026-11-21T10:00:01.000Z';
  const changed = await app.inject('/api/avatar');
  t.match(changed.headers['content-type'], /^application\/json; charset=utf-8$/);
  t.same(changed.json(), {
    avatar_shape: 'Square',
    emotions: { joy: 0.1, sadness: 0.9, anger: 0.2, fear: 0.3, curiosity: 0.4 },
    sentiment: { sentiment: 'negative', positive: 0.1, negative: 0.9 },
    is_initialized: true,
    last_updated: '2026-11-21T10:00:01.000Z',
    status: 'ready',
  });
});

t.test('while not ready it is still 200, saying the phase, so the page can keep polling', async (t) => {
  const { app, system } = await harness(t, { system: 'fake' });
  for (const [phase, status] of [
    ['initializing', 'initializing'],
    ['keyMissing', 'missing_llm_key'],
    ['failed', 'error'],
  ] as const) {
    system.phase = phase;
    const response = await app.inject('/api/avatar');
    t.equal(response.statusCode, 200, phase);
    t.match(response.json(), { is_initialized: false, status, avatar_shape: 'Circle', emotions: { joy: 0.5 } }, phase);
  }
});

t.test('when the avatar cannot be read: 500 with the body of docs/specification.md#endpoints', async (t) => {
  const { app, system, logs } = await harness(t, { system: 'fake' });
  system.answersStatus = false;
  const response = await app.inject('/api/avatar');
  t.equal(response.statusCode, 500);
  t.match(response.headers['content-type'], /^application\/json/);
  t.same(response.json(), { error: 'Failed to get avatar information', avatar_shape: 'Circle', status: 'error' });
  t.ok(
    logs().some((line) => line.level === 50 && line.msg === 'Failed to get avatar information'),
    'the failure is logged as an error',
  );
});
