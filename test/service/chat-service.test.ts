import t from 'tap';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { loadChatConfig } from '../../src/config/chat-config.js';
import { defaultState } from '../../src/emotions/state.js';
import { writeEmotionsFile } from '../../src/persistence/emotions-file.js';
import { createLogger } from '../../src/runtime/logger.js';
import type { SystemServices } from '../../src/actors/system-setup.js';
import { ServiceStartError, startChatService } from '../../src/service/chat-service.js';
import { capturedLogger } from '../support/captured-logger.js';
import { FakeSystem } from '../support/fake-system.js';
import { freePort } from '../../testkit/free-port.js';

function tempDir(t: { teardown(fn: () => unknown): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'chat-service-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const quietLogger = () => createLogger({ debug: false, destination: new PassThrough() });

/** The fake system behind the service's factory, recording what the service did with it. */
function fakeFactory() {
  const record = { started: 0, stopped: 0, deps: undefined as SystemServices | undefined, fake: undefined as FakeSystem | undefined };
  const createSystem = (deps: SystemServices) => {
    record.deps = deps;
    record.fake = new FakeSystem(deps.bus);
    return {
      start: () => void (record.started += 1),
      stop: async () => {
        record.stopped += 1;
        record.fake?.stop();
      },
    };
  };
  return { record, createSystem };
}

t.test('listens on the configured host and an ephemeral port while the system answers on the bus', async (t) => {
  const { record, createSystem } = fakeFactory();
  const config = loadChatConfig({ PORT: '0', HOST: '127.0.0.1' });
  const service = await startChatService({ config, logger: quietLogger(), createSystem });
  t.teardown(() => service.close());
  t.match(service.address, /^http:\/\/127\.0\.0\.1:\d+$/);
  t.equal(record.started, 1);
  t.equal(record.deps?.config, config);
  t.equal(record.deps?.bus, service.bus, 'the system and the app share one bus');
  record.fake!.phase = 'initializing';
  const response = await fetch(`${service.address}/api/is_initialized`);
  t.equal(response.status, 200);
  t.match(await response.json(), { initializing: true });
});

t.test('close is graceful and happens once: server, then system, then bus', async (t) => {
  const { record, createSystem } = fakeFactory();
  const service = await startChatService({ config: loadChatConfig({ PORT: '0' }), logger: quietLogger(), createSystem });
  await Promise.all([service.close(), service.close()]);
  t.equal(record.stopped, 1);
  await t.rejects(fetch(`${service.address}/health`), 'the server no longer listens');
  t.throws(() => service.bus.publish({ type: 'status.requested', correlationId: 'x' }), { name: 'BusClosedError' });
});

t.test('close stops the system while the adapters it was given are open, then closes them', async (t) => {
  const { record, createSystem } = fakeFactory();
  const drift = {
    kind: 'drift',
    deltas: { joy: 0.01, sadness: 0, anger: 0, fear: 0, curiosity: 0 },
    at: '2026-11-26T08:00:00.000Z',
  } as const;
  const ledgerOpenAtStop: boolean[] = [];
  const factory = (deps: SystemServices) => {
    const system = createSystem(deps);
    // What the real system's memory store tells the ledger at start; the fake loads nothing.
    deps.ledger.startFrom(defaultState(drift.at));
    return {
      start: system.start,
      stop: async () => {
        ledgerOpenAtStop.push(
          await deps.ledger.append(drift).then(
            () => true,
            () => false,
          ),
        );
        await system.stop();
      },
    };
  };
  const service = await startChatService({
    config: loadChatConfig({ PORT: '0' }),
    logger: quietLogger(),
    createSystem: factory,
    inProcess: true,
  });
  await service.close();
  t.same(ledgerOpenAtStop, [true], 'the ledger took a change while the system stopped');
  await t.rejects(record.deps!.ledger.append(drift), { name: 'MoodLedgerClosedError' }, 'then it was closed');
});

t.test('with EVENT_LOG every bus event lands in the file', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'events.jsonl');
  const { createSystem } = fakeFactory();
  const service = await startChatService({
    config: loadChatConfig({ PORT: '0', EVENT_LOG: file }),
    logger: quietLogger(),
    createSystem,
  });
  await fetch(`${service.address}/api/avatar`);
  await service.close();
  const types = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { type: string }).type);
  t.same(types, ['system.phase.changed', 'status.requested', 'status.reported']);
});

t.test('an event log that cannot be opened is a start error naming EVENT_LOG', async (t) => {
  const dir = tempDir(t);
  const { record, createSystem } = fakeFactory();
  await t.rejects(startChatService({ config: loadChatConfig({ PORT: '0', EVENT_LOG: dir }), logger: quietLogger(), createSystem }), {
    name: 'ServiceStartError',
    message: /^EVENT_LOG: cannot open/,
  });
  t.equal(record.started, 0, 'the system never started');
});

t.test('a port in use is a start error, and the system never starts', async (t) => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  t.teardown(() => blocker.close());
  const port = (blocker.address() as { port: number }).port;
  const { record, createSystem } = fakeFactory();
  const error = await startChatService({
    config: loadChatConfig({ PORT: String(port), HOST: '127.0.0.1' }),
    logger: quietLogger(),
    createSystem,
  }).catch((caught: unknown) => caught);
  t.type(error, ServiceStartError);
  t.match(error, { message: new RegExp(`cannot listen on 127.0.0.1:${port}.*EADDRINUSE`) });
  t.equal(record.deps, undefined, 'the server listens before the system is created');
});

t.test('the embedded store opens after the server listens; one that cannot open is a start error that frees the port', async (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'emotions.db')); // where the store's file should be
  const port = await freePort();
  const { record, createSystem } = fakeFactory();
  const captured = capturedLogger();
  const error = await startChatService({
    config: loadChatConfig({ PORT: String(port), HOST: '127.0.0.1', EMOTIONS_FILE: join(dir, 'emotions.json') }),
    logger: captured.logger,
    createSystem,
  }).catch((caught: unknown) => caught);
  t.type(error, ServiceStartError);
  t.match(error, { message: /^cannot open the conversation store .*emotions\.db \(Is a directory/ });
  t.match(captured.text(), `Server listening at http://127.0.0.1:${port}`, 'it listened before it opened the store');
  t.equal(record.deps, undefined, 'the system never started');
  t.equal(await freePort(port), port, 'the server that listened is closed');
});

t.test('when the system exits, the pending reply goes out, then the event log is flushed, then exit(code)', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'events.jsonl');
  const { record, createSystem } = fakeFactory();
  const factory = (deps: SystemServices) => {
    const system = createSystem(deps);
    record.fake!.chatBehaviour = { kind: 'reject', reason: 'provider_failed', error: 'provider said 500' };
    // As the real system does: reject the chat, then end the process at once.
    deps.bus.on('chat.rejected').subscribe(() => deps.exit(1));
    return system;
  };
  let logAtExit = '';
  let exitCode: (code: number) => void = () => undefined;
  const exited = new Promise<number>((resolve) => (exitCode = resolve));
  const service = await startChatService({
    config: loadChatConfig({ PORT: '0', EVENT_LOG: file }),
    logger: quietLogger(),
    createSystem: factory,
    exit: (code) => {
      logAtExit = readFileSync(file, 'utf8');
      exitCode(code);
    },
  });
  t.teardown(() => service.close());
  const response = await fetch(`${service.address}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message: 'hello' }),
  });
  t.equal(response.status, 502);
  t.match(await response.json(), { error: /failed/, status: 'error' });
  t.equal(await exited, 1);
  t.match(logAtExit, '"type":"chat.rejected"', 'the event log was flushed before exit');
  await t.rejects(fetch(`${service.address}/health`), 'the server stopped taking requests before the exit');
});

t.test('an empty store beside an emotions file with a saved mood is a warning, said once; a first start says nothing', async (t) => {
  const dir = tempDir(t);
  const start = async (emotionsFile: string) => {
    const log = capturedLogger();
    const service = await startChatService({
      config: loadChatConfig({ PORT: '0', HOST: '127.0.0.1', EMOTIONS_FILE: emotionsFile }),
      logger: log.logger,
      createSystem: fakeFactory().createSystem,
    });
    await service.close();
    return log.lines().filter((line) => /conversation store is empty/.test(String(line.msg)));
  };
  t.same(await start(join(dir, 'first.json')), [], 'no emotions file: a first start, nothing to say');
  const emotionsFile = join(dir, 'emotions.json');
  await writeEmotionsFile(emotionsFile, defaultState('2026-11-20T08:00:00.000Z'));
  const warnings = await start(emotionsFile);
  t.equal(warnings.length, 1);
  t.match(warnings[0], { level: 40, store: join(dir, 'emotions.db'), savedAt: '2026-11-20T08:00:00.000Z' });
});
