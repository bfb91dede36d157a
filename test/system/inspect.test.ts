import t from 'tap';
import { createActor, createMachine } from 'xstate';
import { inspectionFromEnv } from '../../src/system/inspect.js';
import { createLogger } from '../../src/runtime/logger.js';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ROOT, requireBuilt } from '../support/built-cli.js';
import { untraced } from '../../testkit/untraced.js';

const run = promisify(execFile);

function capture() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ destination: { write: (line: string) => lines.push(JSON.parse(line)) }, debug: true });
  return { lines, logger };
}

t.test('off unless XSTATE_INSPECT is set', (t) => {
  const { logger } = capture();
  t.equal(inspectionFromEnv({}, logger), undefined);
  t.equal(inspectionFromEnv({ XSTATE_INSPECT: ' ' }, logger), undefined);
  t.end();
});

t.test('XSTATE_INSPECT=log writes machine events and states to the debug log', (t) => {
  const { lines, logger } = capture();
  const inspection = inspectionFromEnv({ XSTATE_INSPECT: 'log' }, logger);
  const inspect = inspection?.inspect;
  inspection?.stop();
  const machine = createMachine({ initial: 'a', states: { a: { on: { GO: 'b' } }, b: {} } });
  const actor = createActor(machine, { inspect }).start();
  actor.send({ type: 'GO' });
  t.match(lines, [
    { msg: 'xstate event', event: 'xstate.init' },
    { msg: 'xstate snapshot', value: 'a' },
    { msg: 'xstate event', event: 'GO' },
    { msg: 'xstate snapshot', value: 'b' },
  ]);
  t.end();
});

t.test('anything else is refused with a warning', (t) => {
  const { lines, logger } = capture();
  t.equal(inspectionFromEnv({ XSTATE_INSPECT: 'yes please' }, logger), undefined);
  t.match(lines, [{ level: 40, msg: /XSTATE_INSPECT must be/ }]);
  t.end();
});

t.test('without a ws:// XSTATE_INSPECT, neither @statelyai/inspect nor ws is loaded', async (t) => {
  requireBuilt();
  // A fresh process: the package entry, then inspection set to `log`; CommonJS modules they load land in require.cache.
  const script = `
    import { createRequire } from 'node:module';
    const { inspectionFromEnv } = await import('./dist/system/inspect.js');
    await import('./dist/index.js');
    inspectionFromEnv({ XSTATE_INSPECT: 'log' }, { debug() {}, warn() {} });
    const loaded = Object.keys(createRequire(import.meta.url).cache).filter((path) => /node_modules\\/(ws|isomorphic-ws|superjson)\\//.test(path));
    console.log(JSON.stringify(loaded));`;
  const { stdout } = await run(...untraced(process.execPath, ['--input-type=module', '-e', script]), {
    cwd: ROOT,
    env: { PATH: process.env.PATH },
  });
  t.same(JSON.parse(stdout), []);
});
