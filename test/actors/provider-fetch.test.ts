import t from 'tap';
import { createChatSystem } from '../../src/actors/chat-system.js';
import { Bus } from '../../src/bus/bus.js';
import { loadChatConfig } from '../../src/config/chat-config.js';
import { fixedClock } from '../../src/runtime/clock.js';
import { createLogger } from '../../src/runtime/logger.js';
import { seededRandom } from '../../src/runtime/random.js';
import { completion, modelList, START } from '../support/chat-system-harness.js';

// An injected fetch carries every provider call (key validation and dialogue), with no network at all.
t.test('the providers are reached through the injected fetch', async (t) => {
  const calls: string[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    calls.push(`${init?.method ?? 'GET'} ${new URL(url).pathname}`);
    const body = url.endsWith('/models') ? modelList() : completion('Hello from the stand-in');
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  const bus = new Bus({ clock: fixedClock(START) });
  const system = createChatSystem({
    bus,
    config: loadChatConfig({ LLM_API_KEY: 'sk-test', LLM_BASE_URL: 'http://nowhere.invalid/v1', EMOTIONS_FILE: `${t.testdir()}/emotions.json` }),
    clock: fixedClock(START),
    random: seededRandom(1),
    logger: createLogger({ debug: false, destination: { write: () => undefined } }),
    exit: () => t.fail('must not exit'),
    fetch,
    inspect: () => undefined,
  });
  t.teardown(() => system.stop());
  system.start();
  t.equal(await system.settled(), 'ready');
  const reply = await bus.request({ type: 'chat.requested', session: 'visitor-a', message: 'hi there' }, ['chat.replied', 'chat.rejected'], 2000);
  t.match(reply, { type: 'chat.replied', response: 'Hello from the stand-in' });
  t.same(calls, ['GET /v1/models', 'POST /v1/chat/completions'], 'one validation serves both providers, then one completion');
});
