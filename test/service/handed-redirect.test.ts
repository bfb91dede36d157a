import { join } from 'node:path';
import t from 'tap';
import { createChatSystem } from '../../src/system/chat-system.js';
import { loadChatConfig } from '../../src/config/chat-config.js';
import { createLogger } from '../../src/runtime/logger.js';
import { startChatService } from '../../src/service/chat-service.js';
import { testDir } from '../support/test-dir.js';
import { eventually } from '../../testkit/eventually.js';
import { json, listeningProvider } from '../../testkit/provider-stand-in.js';
import { completion, modelList } from '../../testkit/provider-wire.js';

// Issue 38, the hand-over under load: under `hub serve --supervise` the supervisor hands each new
// connection to the process serving now; until it hears that one has failed, a few more reach it.
// Their requests are sent back to the same address on a new connection (307, the method and body
// kept), which the supervisor hands to the successor: no visitor gets the 503 of a process on its
// way out. Alone (no supervisor, no successor), the 503 with Retry-After stays the honest answer.
t.test('a request reaching a failed process: 307 to the successor when supervised, 503 alone', async (t) => {
  const provider = await listeningProvider(t, (request, body) => {
    if (request.url.endsWith('/models')) return json(200, modelList());
    if (body?.messages.at(-1)?.content.startsWith('fail')) return json(500, { error: { message: 'model overloaded' } });
    return json(200, completion('Noted.'));
  });
  for (const handedConnections of [true, false]) {
    const exits: number[] = [];
    const service = await startChatService({
      config: loadChatConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        LLM_API_KEY: 'sk-test-handed',
        LLM_BASE_URL: provider.baseURL,
        EMOTIONS_FILE: join(testDir(t), 'emotions.json'),
        DRIFT_INTERVAL_MS: '86400000',
      }),
      logger: createLogger({ debug: false, destination: { write: () => undefined } }),
      createSystem: (deps) => createChatSystem({ ...deps, dialogueRetries: 0, inspect: () => undefined }),
      exit: (code) => exits.push(code),
      exitGraceMs: 100,
      handedConnections,
    });
    t.teardown(() => service.close());
    const mode = handedConnections ? 'supervised' : 'alone';
    await eventually(`${mode}: ready`, async () => (await service.app.inject('/api/is_initialized')).json().is_initialized);
    const chat = (message: string) => service.app.inject({ method: 'POST', url: '/api/chat?from=page', payload: { message } });
    t.equal((await chat('fail: the model breaks')).statusCode, 502, `${mode}: the failed chat answers 502`);
    const next = await chat('hello again');
    if (handedConnections) {
      t.equal(next.statusCode, 307, 'supervised: sent on');
      t.equal(next.headers.location, '/api/chat?from=page', 'to the same address, query kept');
      t.equal(next.headers.connection, 'close', 'on a new connection, which the successor gets');
      const read = await service.app.inject('/api/avatar');
      t.equal(read.statusCode, 307, 'reads too: the page never shows the failed state of a process on its way out');
    } else {
      t.equal(next.statusCode, 503, 'alone: nobody to send it on to');
      t.equal(next.headers['retry-after'], '5');
    }
    await eventually(`${mode}: the exit`, () => exits.length === 1);
  }
});
