import t, { type Test } from 'tap';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

// `hub serve` as a user runs it: the built binary in its own process (npm test builds first).
const BIN = new URL('../../bin/run.js', import.meta.url).pathname;

interface Run {
  readonly lines: Array<Record<string, unknown>>;
  readonly stderr: () => string;
  readonly exited: Promise<number | null>;
  /** Resolves with the address once the server listens. */
  readonly listening: Promise<string>;
  kill(signal: NodeJS.Signals): void;
}

function serve(t: Test, env: Record<string, string>): Run {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(LLM_|CHAT_|PORT$|HOST$|EVENT_LOG$|EMOTIONS_FILE$)/.test(name)),
  );
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: { ...clean, PORT: '0', HOST: '127.0.0.1', EMOTIONS_FILE: join(t.testdir(), 'emotions.json'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.teardown(() => child.kill('SIGKILL'));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines: Array<Record<string, unknown>> = [];
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const listening = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const entry = JSON.parse(line) as Record<string, unknown>;
      lines.push(entry);
      const match = /^Server listening at (http:\/\/[\d.]+:\d+)$/.exec(String(entry.msg));
      if (match) resolve(match[1]!);
    });
    void exited.then((code) => reject(new Error(`exited with ${code} before listening: ${stderr}`)));
  });
  listening.catch(() => undefined);
  return { lines, stderr: () => stderr, exited, listening, kill: (signal) => child.kill(signal) };
}

t.test('a bad PORT is a clear message on stderr and exit 1', async (t) => {
  const run = serve(t, { PORT: 'http' });
  t.equal(await run.exited, 1);
  t.match(run.stderr(), /PORT must be a whole number from 0 to 65535, got "http"/);
  t.same(run.lines, [], 'nothing started');
});

t.test('an event log that cannot be opened is a clear message and exit 1', async (t) => {
  const run = serve(t, { EVENT_LOG: t.testdir() });
  t.equal(await run.exited, 1);
  t.match(run.stderr(), /EVENT_LOG: cannot open/);
});

t.test('without a key it serves the page and explains the key; SIGTERM stops it with exit 0', async (t) => {
  const run = serve(t, { DEBUG: '0' });
  const address = await run.listening;
  let state: any;
  do state = await (await fetch(`${address}/api/is_initialized`)).json();
  while (state.initializing);
  t.match(state, { missing_llm_key: true, error_page: '/error' });
  const page = await fetch(`${address}/`);
  t.equal(page.status, 200);
  t.match(await (await fetch(`${address}/error`)).text(), 'LLM_API_KEY');
  run.kill('SIGTERM');
  t.equal(await run.exited, 0);
  t.ok(run.lines.some((line) => line.msg === 'the chat service stopped'));
});

t.test('a key the provider refuses: the detailed failure is logged and the process exits 1', async (t) => {
  const provider = createServer((request, response) => {
    response.writeHead(401, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { message: 'Incorrect API key provided', code: 'invalid_api_key' } }));
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  t.teardown(() => provider.close());
  const { port } = provider.address() as { port: number };
  const run = serve(t, { LLM_API_KEY: 'sk-refused-key', LLM_BASE_URL: `http://127.0.0.1:${port}/v1` });
  t.equal(await run.exited, 1);
  const text = JSON.stringify(run.lines);
  t.match(text, /Incorrect API key provided/, 'the reason is in the log');
  t.notMatch(text, 'sk-refused-key', 'the key is not');
  t.ok(run.lines.some((line) => line.msg === 'the chat service exits'), 'the last line made it out before the exit');
});
