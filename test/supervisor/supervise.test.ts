import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import type { ChildProcess } from 'node:child_process';
import t from 'tap';
import { READY_MESSAGE } from '../../src/service/supervisor-messages.js';
import { supervise, type SuperviseOptions } from '../../src/supervisor/supervise.js';
import { eventually, settlesWithin } from '../../testkit/eventually.js';
import { capturedLogger } from '../support/captured-logger.js';

/** A child process as the supervisor sees it: messages, signals, an exit, all driven by the test. */
class FakeChild extends EventEmitter {
  static count = 0;
  readonly pid = (FakeChild.count += 1);
  readonly stdout = new PassThrough();
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  readonly signals: NodeJS.Signals[] = [];
  /** What the child does with a signal: by default it ends by it. */
  onSignal: (signal: NodeJS.Signals) => void = (signal) => this.exit(null, signal);

  constructor(
    readonly standby: boolean,
    readonly keyChecked: boolean,
  ) {
    super();
  }
  kill(signal: NodeJS.Signals): boolean {
    this.signals.push(signal);
    setImmediate(() => this.onSignal(signal));
    return true;
  }
  /** A standby child told to serve. */
  served = false;
  send(): boolean {
    this.served = true;
    return true;
  }
  ready(): void {
    this.emit('message', READY_MESSAGE);
  }
  exit(code: number | null, signal: NodeJS.Signals | null = null): void {
    this.exitCode = code;
    this.signalCode = signal;
    this.emit('exit', code, signal);
  }
}

/** The supervisor over fake children, with a signal of its own (not the test process's SIGTERM). */
function supervised(overrides: Partial<SuperviseOptions> = {}) {
  const log = capturedLogger();
  const children: FakeChild[] = [];
  const status = supervise({
    start: (standby, keyChecked) => {
      const child = new FakeChild(standby, keyChecked);
      children.push(child);
      return child as unknown as ChildProcess;
    },
    logger: log.logger,
    output: new PassThrough(),
    signals: ['SIGUSR2'],
    ...overrides,
  });
  // The children that served, in order: fresh ones, and standbys once told to serve.
  const serving = () => children.filter((child) => !child.standby || child.served);
  return { children, serving, status, lines: log.lines };
}

t.test('a first child that is not ready in time is killed, and the supervisor exits 1 saying so', async (t) => {
  const { serving, status, lines } = supervised({ readyTimeoutMs: 50 });
  t.equal(await settlesWithin('the supervisor to end', status), 1);
  t.same(serving()[0]?.signals, ['SIGKILL']);
  t.ok(
    lines().some((line) => /not ready within 50 ms/.test(String(line.msg))),
    'the deadline is named in the log',
  );
  t.equal(serving().length, 1, 'not restarted');
});

t.test('children that fail soon after they are ready are restarted with a growing, logged delay; a steady one resets it', async (t) => {
  let clock = 0;
  const { serving, status, lines } = supervised({ backoff: { initialMs: 10, maxMs: 1000, steadyMs: 5000 }, now: () => clock });
  const delays = () =>
    lines()
      .filter((line) => line.delayMs !== undefined)
      .map((line) => line.delayMs);
  for (let n = 1; n <= 4; n += 1) {
    const child = await eventually(`child ${n}`, () => serving()[n - 1]);
    child.ready();
    clock += 1000; // ready for a second, then the model fails
    child.exit(1);
  }
  t.same(delays(), [0, 20, 40, 80], 'the first at once, then doubling');
  t.match(lines().at(-1)?.msg, /restarting it in 80 ms \(4 starts in a row ended within 5000 ms of being ready\)/);
  const steady = await eventually('child 5', () => serving()[4]);
  steady.ready();
  clock += 5000;
  steady.exit(1);
  t.equal(delays().at(-1), 0, 'a child that ran steadily comes back at once');
  t.same(
    serving().map((child) => child.keyChecked),
    [false, true, true, true, true],
    'only the first start checks the key',
  );
  const last = await eventually('child 6', () => serving()[5]);
  process.emit('SIGUSR2', 'SIGUSR2');
  t.equal(await settlesWithin('the supervisor to end', status), 0);
  t.same(last.signals, ['SIGUSR2']);
});

t.test('a stop signal ends the supervisor with 0 whatever the child does with it', async (t) => {
  const { serving, status } = supervised();
  const first = await eventually('the first child', () => serving()[0]);
  first.ready();
  first.exit(1); // a model failure: restarted at once
  const second = await eventually('the restarted child', () => serving()[1]);
  second.onSignal = () => second.exit(1); // the stop comes while it starts, and it fails
  process.emit('SIGUSR2', 'SIGUSR2');
  t.equal(await settlesWithin('the supervisor to end', status), 0);
});
