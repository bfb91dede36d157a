import t from 'tap';
import { harness } from '../support/harness.js';

const LOGGING_REQUESTS = { config: { maxMessageLength: 50, providerTimeoutMs: 50, logRequests: true } };

t.test('with LOG_REQUESTS, two info lines per request, each carrying its reqId', async (t) => {
  const { app, logs } = await harness(t, { system: 'fake', app: LOGGING_REQUESTS, debugLines: false });
  await app.inject('/health');
  const lines = logs().filter((line) => line.msg === 'incoming request' || line.msg === 'request completed');
  t.equal(lines.length, 2);
  t.ok(lines.every((line) => typeof line.reqId === 'string' && line.reqId === lines[0]?.reqId));
  t.ok(
    lines.every((line) => line.level === 30),
    'at info: shown whatever DEBUG says',
  );
});

t.test("by default, debug on, a page's polls, event stream and assets write no line", async (t) => {
  const { app, logs } = await harness(t, { system: 'fake' });
  for (let poll = 0; poll < 60; poll += 1) t.equal((await app.inject('/api/avatar')).statusCode, 200);
  for (const url of ['/', '/api/is_initialized', '/api/history', '/assets/app.js', '/assets/style.css', '/assets/vendor/mitt.js']) {
    t.equal((await app.inject(url)).statusCode, 200, url);
  }
  t.same(logs(), [], 'a minute of an open page: not one line');
});

t.test('with debug off, no request lines, and a 500 still names its request', async (t) => {
  const { app, system, logs } = await harness(t, { system: 'fake', debugLines: false });
  await app.inject('/health');
  t.same(logs(), [], 'a healthy request writes nothing');
  system.answersStatus = false;
  const failed = await app.inject('/api/avatar');
  t.equal(failed.statusCode, 500);
  t.match(logs(), [{ level: 50, reqId: /^req-/ }], 'one error line, with the reqId');
});

for (const debug of [true, false]) {
  t.test(`an error line names its request once (debug ${debug ? 'on' : 'off'})`, async (t) => {
    const { app, system, logText } = await harness(t, { system: 'fake', debugLines: debug });
    system.answersStatus = false;
    t.equal((await app.inject('/api/avatar')).statusCode, 500);
    const errorLine = logText()
      .split('\n')
      .find((line) => line.includes('"level":50'));
    t.equal(errorLine?.match(/"reqId":/g)?.length, 1, String(errorLine));
  });

  t.test(`listening is logged once (debug ${debug ? 'on' : 'off'}, with and without LOG_REQUESTS)`, async (t) => {
    for (const overrides of [{}, LOGGING_REQUESTS]) {
      const { app, logs } = await harness(t, { system: 'fake', app: overrides, debugLines: debug });
      const address = await app.listen({ host: '127.0.0.1', port: 0 });
      t.same(
        logs()
          .filter((line) => String(line.msg).startsWith('Server listening at'))
          .map((line) => line.msg),
        [`Server listening at ${address}`],
      );
    }
  });
}
