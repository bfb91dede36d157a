import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { CookieJar } from '../support/cookie-jar.js';
import { eventually } from '../../testkit/eventually.js';
import { serve, settledOver } from '../support/served-cli.js';
import { SseReader } from '../support/sse-client.js';
import { completion, modelList } from '../../testkit/provider-wire.js';
import { json, listeningProvider } from '../../testkit/provider-stand-in.js';
import { testDir } from '../support/test-dir.js';

// Issue 20, "the seed's exit becomes a blip": the built `hub serve --supervise`, as the Space runs it.

/** A port free right now: the supervised service must come back on the same one. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const listens = (lines: Array<Record<string, unknown>>): number =>
  lines.filter((line) => String(line.msg).startsWith('Server listening at')).length;

t.test('a model failure ends the child; the supervisor restarts it at once, with the mood, the file and the conversation', async (t) => {
  const provider = await listeningProvider(t, (request, body) => {
    if (request.url?.endsWith('/models')) return json(200, modelList());
    if (body?.messages.at(-1)?.content.startsWith('fail')) return json(400, { error: { message: 'the model broke' } });
    return json(200, completion('Noted.'));
  });
  const dir = testDir(t);
  const port = String(await freePort());
  const env = {
    LLM_API_KEY: 'sk-test-supervise',
    LLM_BASE_URL: provider.baseURL,
    EMOTIONS_FILE: join(dir, 'emotions.json'),
    DRIFT_INTERVAL_MS: '86400000',
    PORT: port,
  };
  const supervisor = serve(t, env, ['--supervise']);
  const address = await supervisor.listening;
  await settledOver(address);
  const visitor = new CookieJar(address);
  const first = await visitor.chat('I love this, what a wonderful day');
  t.equal(first.status, 200);

  await eventually(
    'the standby child loaded',
    () => supervisor.lines.some((line) => /a standby service has loaded/.test(String(line.msg))),
    {
      timeoutMs: 20_000,
    },
  );
  const failed = await visitor.chat('fail: the model breaks on this one');
  t.equal(failed.status, 502, 'the seed: a model failure answers 502 and ends the service');
  const failedAt = Date.now();
  const status = await eventually(
    'the service answering again',
    async () => {
      const response = await fetch(`${address}/status`).catch(() => undefined);
      return response?.status === 200 ? response.json() : undefined;
    },
    { timeoutMs: 10_000, intervalMs: 5 },
  );
  const downMs = Date.now() - failedAt;
  t.comment(`answering again ${downMs} ms after the model failure's answer`);
  // Issue 20's bound. On a machine whose cores are queued several deep (load average above 2 per core,
  // as with the whole suite and other builds on 2 cores) any restart takes seconds: then the figure is only printed.
  if (loadavg()[0]! <= 2 * availableParallelism()) t.ok(downMs < 3000, `answers again within 3 s (${downMs} ms)`);
  t.ok(status, 'GET /status answers (initializing, until the new child is ready)');
  await settledOver(address);
  const ready = (await (await fetch(`${address}/status`)).json()) as { emotions: object };
  t.same(ready.emotions, first.body.emotions, 'the mood is the one the last answered chat left');
  const file = JSON.parse(readFileSync(env.EMOTIONS_FILE, 'utf8')) as { emotions: Record<string, number> };
  t.same(
    Object.values(file.emotions).map((value) => Math.round(value * 100) / 100),
    Object.values(first.body.emotions),
    'the emotions file is intact',
  );
  const next = await visitor.chat('do you remember me?');
  t.equal(next.status, 200);
  t.ok(
    provider.prompts.at(-1)!.messages.some((turn) => turn.content === 'I love this, what a wonderful day'),
    'the conversation is intact: the first exchange is in the next prompt',
  );
  const handOver = supervisor.lines.find((line) => line.component === 'supervisor' && /takes new connections now/.test(String(line.msg)));
  t.match(handOver, { level: 40, cause: /chat model replies/ }, "the supervisor's log says why the next service took over");
  t.equal(listens(supervisor.lines), 1, 'the port stayed open all along: the supervisor holds it');
  t.equal(
    provider.calls.filter((call) => call.endsWith('/models')).length,
    1,
    'the key was checked at the first start only, not by the next service',
  );

  supervisor.kill('SIGTERM');
  t.equal(await supervisor.exited, 0, 'SIGTERM reaches the child; both stop');
  t.ok(
    supervisor.lines.some((line) => line.component === 'supervisor' && /exited with status 0; the supervisor stops/.test(String(line.msg))),
    'the supervisor says it stops with the service',
  );
});

t.test('a child that fails before it is ready (a bad key) is not restarted: the supervisor exits 1', async (t) => {
  const provider = await listeningProvider(t, () => json(401, { error: { message: 'Incorrect API key provided' } }));
  const supervisor = serve(
    t,
    { LLM_API_KEY: 'sk-test-bad', LLM_BASE_URL: provider.baseURL, EMOTIONS_FILE: join(testDir(t), 'emotions.json') },
    ['--supervise'],
  );
  t.equal(await supervisor.exited, 1);
  t.notOk(
    supervisor.lines.some((line) => /takes new connections|restarting it (at once|in)/.test(String(line.msg))),
    'no second child',
  );
  t.match(
    supervisor.lines.find((line) => line.component === 'supervisor' && line.level === 50),
    { level: 50, msg: /before it was ready: not restarting it/, cause: /401/ },
  );
});

t.test('a model failure under --supervise: the reply in flight ends whole while the next process answers every new request', async (t) => {
  let release: () => void = () => undefined;
  const provider = await listeningProvider(t, (request, body) => {
    if (request.url?.endsWith('/models')) return json(200, modelList());
    const message = body?.messages.at(-1)?.content ?? '';
    if (message.startsWith('fail')) return json(400, { error: { message: 'the model broke' } });
    if (message.startsWith('slow')) return new Promise((resolve) => (release = () => resolve(json(200, completion('Worth the wait.')))));
    return json(200, completion('Noted.'));
  });
  const env = {
    LLM_API_KEY: 'sk-test-supervise',
    LLM_BASE_URL: provider.baseURL,
    LLM_TIMEOUT_MS: '30000',
    EMOTIONS_FILE: join(testDir(t), 'emotions.json'),
    DRIFT_INTERVAL_MS: '86400000',
    PORT: String(await freePort()),
  };
  const supervisor = serve(t, env, ['--supervise']);
  const address = await supervisor.listening;
  await settledOver(address);
  await eventually(
    'the standby child loaded',
    () => supervisor.lines.some((line) => /a standby service has loaded/.test(String(line.msg))),
    {
      timeoutMs: 20_000,
    },
  );
  const slowVisitor = new CookieJar(address);
  const response = await slowVisitor.fetch('/api/chat', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ message: 'slow: tell me something' }),
  });
  const reader = new SseReader(response.body!);
  await eventually('the slow chat at the model', () => provider.prompts.length === 1);
  t.equal((await new CookieJar(address).chat('fail: the model breaks on this one')).status, 502);
  await eventually('the hand-over', () => supervisor.lines.some((line) => /takes new connections now/.test(String(line.msg))), {
    timeoutMs: 10_000,
  });

  // While the old process drains, every new request is answered (by the next one): never refused, never 503 once it serves.
  const statuses: number[] = [];
  const answered = await eventually(
    'a chat answered by the next process',
    async () => {
      const answer = await new CookieJar(address).chat('hello again').catch(() => ({ status: 0, body: undefined }));
      statuses.push(answer.status);
      return answer.status === 200 ? answer : undefined;
    },
    { timeoutMs: 20_000, intervalMs: 20 },
  );
  t.equal(answered.body.response, 'Noted.');
  t.same(statuses, [200], 'the first new chat is answered by the next process: no refused connection, no 503');
  t.notOk(reader.ended, 'the reply in flight is still going on the old process');

  release();
  await reader.done;
  t.match(reader.data('done'), [{ response: 'Worth the wait.' }], "the healthy reply ended whole, not cut by another visitor's failure");
  await eventually('the old process gone', () =>
    supervisor.lines.some((line) => /the service that drained exited with status 1; its successor serves/.test(String(line.msg))),
  );
  // The reply that ended on the old process is the visitor's on the successor once the old one has exited.
  const history = await eventually('the drained exchange in the history on the successor', async () => {
    const messages = ((await (await slowVisitor.fetch('/api/history')).json()) as { messages: { role: string; content: string }[] })
      .messages;
    return messages.length > 0 ? messages : undefined;
  });
  t.match(history, [
    { role: 'user', content: 'slow: tell me something' },
    { role: 'assistant', content: 'Worth the wait.' },
  ]);
  t.equal((await new CookieJar(address).chat('still there?')).status, 200);
  supervisor.kill('SIGTERM');
  t.equal(await supervisor.exited, 0);
});
