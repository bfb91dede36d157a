import { once } from 'node:events';
import { createRequire } from 'node:module';
import t, { type Test } from 'tap';
import { createActor } from 'xstate';
import { inspectionFromEnv } from '../../src/system/inspect.js';
import { InspectorSocket } from '../../src/system/inspect-socket.js';
import { createSystemMachine } from '../../src/actors/system-machine.js';
import { Bus } from '../../src/bus/bus.js';
import { loadChatConfig } from '../../src/config/chat-config.js';
import { fixedClock } from '../../src/runtime/clock.js';
import { createLogger } from '../../src/runtime/logger.js';
import { ALWAYS_HELD } from '../../src/mood-ledger/drift-lease.js';
import { LocalMoodLedger } from '../../src/mood-ledger/local-mood-ledger.js';
import { MemoryConversationStore } from '../../src/conversations/memory-conversation-store.js';
import { eventually } from '../../testkit/eventually.js';
import { DEFAULT_MAX_SESSION_BYTES } from '../../src/config/defaults.js';

interface Server {
  address(): { port: number };
  close(): void;
  on(event: 'connection', listener: (socket: { on(event: 'message', l: (data: Buffer) => void): void }) => void): void;
}
const { WebSocketServer } = createRequire(import.meta.url)('ws') as {
  WebSocketServer: new (options: { host: string; port: number }) => Server;
};

async function inspectorServer(t: Test) {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(server as unknown as NodeJS.EventEmitter, 'listening');
  t.teardown(() => server.close());
  const messages: Record<string, unknown>[] = [];
  server.on('connection', (socket) => socket.on('message', (data) => messages.push(JSON.parse(data.toString()))));
  return { url: `ws://127.0.0.1:${server.address().port}`, messages };
}

t.test('XSTATE_INSPECT=ws://… streams the machine to the inspector, without config or keys', async (t) => {
  const { url, messages } = await inspectorServer(t);
  const logger = createLogger({ destination: { write: () => undefined } });
  const inspection = inspectionFromEnv({ XSTATE_INSPECT: url }, logger);
  t.ok(inspection);
  const actor = createActor(
    createSystemMachine({
      bus: new Bus(),
      config: loadChatConfig({ LLM_API_KEY: 'sk-inspected-secret', EMOTIONS_FILE: '/nonexistent/emotions.json' }),
      clock: fixedClock('2026-11-21T10:00:00.000Z'),
      random: () => 0.5,
      logger,
      exit: () => undefined,
      ledger: new LocalMoodLedger(),
      conversations: new MemoryConversationStore({
        maxSessions: 10,
        idleMs: 60_000,
        maxBytes: DEFAULT_MAX_SESSION_BYTES,
        clock: fixedClock('2026-11-21T10:00:00.000Z'),
      }),
      driftLease: ALWAYS_HELD,
    }),
    { inspect: inspection?.inspect },
  ).start();
  await eventually('a snapshot at the inspector', () => messages.some((m) => m.type === '@xstate.snapshot'));
  actor.stop();
  inspection?.stop();
  t.ok(
    messages.some((m) => m.type === '@xstate.actor'),
    'the actor is announced',
  );
  t.notMatch(JSON.stringify(messages), /sk-inspected-secret/, 'no key leaves the process');
});

t.test('while unreachable, the newest 200 events wait; they go out once connected', async (t) => {
  const { url, messages } = await inspectorServer(t);
  const socket = new InspectorSocket(url);
  for (let index = 0; index < 205; index += 1) socket.send({ type: '@xstate.event', index } as never);
  socket.start();
  await eventually('200 events at the inspector', () => messages.length >= 200);
  socket.stop();
  t.equal(messages.length, 200);
  t.match(messages[0], { index: 5 }, 'the oldest were dropped');
});

t.test('queued events go out once connected; repeated references are cut', async (t) => {
  const { url, messages } = await inspectorServer(t);
  const socket = new InspectorSocket(url);
  const shared = { a: 1 };
  socket.send({ type: '@xstate.event', one: shared, two: shared, fn: () => 1 } as never);
  socket.start();
  await eventually('an event at the inspector', () => messages.length > 0);
  socket.stop();
  t.same(messages, [{ type: '@xstate.event', one: { a: 1 }, two: '[seen]' }]);
});
