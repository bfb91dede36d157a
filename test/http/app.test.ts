import t from 'tap';
import { bodyLimitFor } from '../../src/http/app.js';
import { ANGRY_APPRAISAL } from '../support/moods.js';
import { chat, harness } from '../support/harness.js';

t.test('unknown paths and methods are 404 with a JSON error', async (t) => {
  const { app } = await harness(t, { system: 'fake' });
  for (const [method, url] of [
    ['GET', '/nope'],
    ['GET', '/api/chat'],
    ['POST', '/health'],
    ['DELETE', '/api/avatar'],
  ] as const) {
    const response = await app.inject({ method, url });
    t.equal(response.statusCode, 404, `${method} ${url}`);
    t.match(response.headers['content-type'], /^application\/json/);
    t.same(response.json(), { error: `Route ${method} ${url} not found` });
  }
});

t.test('every response carries a strict content security policy and nosniff', async (t) => {
  const { app } = await harness(t, { system: 'fake' });
  for (const url of ['/', '/api/avatar', '/assets/app.js', '/nope']) {
    const response = await app.inject(url);
    const policy = String(response.headers['content-security-policy']);
    t.match(policy, /^default-src 'self'/, url);
    t.match(policy, "script-src 'self'", url);
    t.notMatch(policy, 'unsafe-inline', url);
    t.equal(response.headers['x-content-type-options'], 'nosniff', url);
  }
});

t.test('with LOG_REQUESTS, requests are logged at info level, without bodies', async (t) => {
  const { app, logs } = await harness(t, {
    system: 'fake',
    app: { config: { maxMessageLength: 50, providerTimeoutMs: 50, logRequests: true } },
  });
  await chat(app, { message: 'my very private words' });
  await app.inject('/nowhere');
  const lines = logs();
  const incoming = lines.find((line) => line.msg === 'incoming request');
  const completed = lines.find((line) => line.msg === 'request completed');
  t.match(incoming, { level: 30, req: { method: 'POST', url: '/api/chat' } });
  t.match(completed, { level: 30, res: { statusCode: 200 } });
  t.ok(lines.some((line) => line.level === 30 && (line.res as { statusCode?: number } | undefined)?.statusCode === 404));
  t.notMatch(JSON.stringify(lines), 'private words', 'no body reaches the log');
});

t.test('the body limit leaves room for the longest message in UTF-8', (t) => {
  t.ok(bodyLimitFor(4000) >= 4000 * 4);
  t.end();
});

t.test('the default chat timeout outlasts the provider timeout', async (t) => {
  const { app, bus, system } = await harness(t, {
    system: 'fake',
    app: { timeouts: { statusMs: 30 }, config: { maxMessageLength: 50, providerTimeoutMs: 20 } },
  });
  system.chatBehaviour = { kind: 'silent' };
  // Answered 80 ms later: past a tiny status timeout, well within 3 × 20 ms + 10 s.
  const subscription = bus.on('chat.requested').subscribe(({ correlationId }) => {
    setTimeout(() => {
      bus.publish({
        type: 'chat.replied',
        correlationId,
        response: 'late but fine',
        avatarShape: 'Circle',
        emotions: system.emotions,
        appraisal: ANGRY_APPRAISAL,
      });
    }, 80);
  });
  t.teardown(() => subscription.unsubscribe());
  const response = await chat(app, { message: 'hello' });
  t.equal(response.statusCode, 200);
  t.equal(response.json().response, 'late but fine');
});
