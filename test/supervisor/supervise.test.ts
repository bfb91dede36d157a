import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import type { ChildProcess } from 'node:child_process';
import t from 'tap';
import { DRAINING_MESSAGE, READY_MESSAGE } from '../../src/service/supervisor-messages.js';
import { supervise, type SuperviseOptions } from '../../src/supervisor/supervise.js';
import type { ConnectionDesk } from '../../src/supervisor/connection-desk.js';
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

/** The supervisor's waits, held until the test runs them: no real time passes. */
function heldWaits() {
  const waits: { ms: number; run: () => void; cancelled: boolean }[] = [];
  const after = (ms: number, run: () => void) => {
    const wait = { ms, run, cancelled: false };
    waits.push(wait);
    return () => {
      wait.cancelled = true;
    };
  };
  /** Runs the waits not yet run or cancelled; returns their lengths. */
  const runAll = (): number[] => {
    const due = waits.splice(0).filter((wait) => !wait.cancelled);
    for (const wait of due) wait.run();
    return due.map((wait) => wait.ms);
  };
  return { after, waits, runAll };
}

t.test('under the default back-off, a child failing 5 s after it was ready restarts at once, the next one after 1 s', async (t) => {
  let clock = 0;
  const held = heldWaits();
  const { serving, status, lines } = supervised({ now: () => clock, after: held.after });
  const first = await eventually('the first child', () => serving()[0]);
  first.ready();
  clock += 5000;
  first.exit(1);
  t.same(held.runAll(), [0], 'the first failure after a steady start: at once');
  const second = await eventually('the second child', () => serving()[1]);
  second.ready();
  clock += 5000;
  second.exit(1);
  t.same(
    held.waits.map((wait) => wait.ms),
    [1000],
    'the second within the steady minute: after 1 s',
  );
  t.equal(serving().length, 2, 'and not before the wait has passed');
  t.match(lines().at(-1), { failuresInARow: 2, delayMs: 1000 });
  held.runAll();
  const third = await eventually('the third child', () => serving()[2]);
  third.ready();
  clock += 60_000;
  third.exit(1);
  t.match(lines().at(-1), { failuresInARow: 0, delayMs: 0 }, 'a minute healthy resets the count');
  held.runAll();
  await eventually('the fourth child', () => serving()[3]);
  process.emit('SIGUSR2', 'SIGUSR2');
  t.equal(await status, 0);
});

t.test('a drain hands over to the loaded standby at once, logs the count, and the back-off holds the next standby', async (t) => {
  let clock = 0;
  const held = heldWaits();
  const desk = { serveWith: () => undefined, stopServingWith: () => undefined, close: () => undefined } as unknown as ConnectionDesk;
  const { children, serving, status, lines } = supervised({ now: () => clock, after: held.after, desk });
  const drain = (child: FakeChild) => child.emit('message', DRAINING_MESSAGE);
  const standbys = () => children.filter((child) => child.standby);
  const first = await eventually('the first child', () => serving()[0]);
  first.ready();
  t.equal(standbys().length, 1, 'a standby loads beside a ready service');
  clock += 5000;
  drain(first);
  t.ok(standbys()[0]?.served, 'the standby serves at once');
  t.match(lines().at(-1), { failuresInARow: 1, delayMs: 0, msg: /drains its chats in flight: the standby takes new connections now/ });
  const second = standbys()[0]!;
  second.ready();
  t.equal(standbys().length, 2, 'no wait after the first: the next standby loads');
  clock += 5000;
  drain(second);
  t.ok(standbys()[1]?.served, 'the loaded standby takes over at once, whatever the count');
  t.match(lines().at(-1), { failuresInARow: 2, delayMs: 1000, msg: /2 services in a row failed within 60000 ms/ });
  standbys()[1]!.ready();
  t.equal(standbys().length, 2, 'the next standby waits for the back-off');
  clock += 1000;
  t.same(held.runAll(), [1000]);
  t.equal(standbys().length, 3, 'and loads once it has passed');
  process.emit('SIGUSR2', 'SIGUSR2');
  t.equal(await status, 0);
});
