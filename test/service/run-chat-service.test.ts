import t from 'tap';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { runChatService } from '../../src/service/run-chat-service.js';
import { requireBuilt } from '../support/built-cli.js';
import { testDir } from '../support/test-dir.js';
import { untraced } from '../../testkit/untraced.js';

const FIXTURE = new URL('../fixtures/serve-with-fake-system.mjs', import.meta.url).pathname;

t.test('a bad environment value is a ConfigError naming the variable, before anything starts', async (t) => {
  await t.rejects(runChatService({ env: { PORT: 'eighty' }, createSystem: () => t.fail('no system') as never }), {
    name: 'ConfigError',
    message: /PORT/,
  });
});

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  t.test(`${signal} stops the service gracefully and the process exits 0`, async (t) => {
    requireBuilt();
    const child = spawn(...untraced(process.execPath, [FIXTURE]), {
      // The state's folder in the test's own: the service keeps its generated session secret there.
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DEBUG: '0', EMOTIONS_FILE: join(testDir(t), 'emotions.json') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    t.teardown(() => child.kill('SIGKILL'));
    const messages: string[] = [];
    const lines = createInterface({ input: child.stdout });
    const address = await new Promise<string>((resolve, reject) => {
      lines.on('line', (line) => {
        const entry = JSON.parse(line) as { msg: string };
        messages.push(entry.msg);
        const listening = /^Server listening at (http:\/\/127\.0\.0\.1:\d+)$/.exec(entry.msg);
        if (listening) resolve(listening[1]!);
      });
      child.on('exit', (code) => reject(new Error(`exited early with ${code}`)));
    });
    const health = await fetch(`${address}/health`);
    t.equal(health.status, 200);
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill(signal);
    t.equal(await exited, 0);
    t.match(messages[0], /^Server listening at /, 'the server listens before the system starts');
    t.same(messages, [
      String(messages[0]),
      'fake system started',
      'stopping the chat service',
      'fake system stopped',
      'the chat service stopped',
    ]);
  });
}
