import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Logger } from '../runtime/logger.js';
import { DEFAULT_BACKOFF, nextStart, type Backoff, type NextStart } from './backoff.js';
import {
  ACCEPTING_MESSAGE,
  DRAINING_MESSAGE,
  LOADED_MESSAGE,
  PREDECESSOR_GONE_MESSAGE,
  READY_MESSAGE,
  SERVE_MESSAGE,
} from '../service/supervisor-messages.js';
import type { ConnectionDesk } from './connection-desk.js';

export interface SuperviseOptions {
  /**
   * Starts the service in a child process with an IPC channel and its stdout piped; a standby
   * child loads and waits for `SERVE_MESSAGE` before it serves. `keyChecked`: a child was ready
   * before, so its keys were checked; this one need not ask the provider again.
   */
  readonly start: (standby: boolean, keyChecked: boolean) => ChildProcess;
  readonly logger: Logger;
  /** Where the children's log lines go (they pass through, so that the supervisor can name a failure's cause). */
  readonly output: NodeJS.WritableStream;
  /** How a child's JSON line is written to `output` (on a terminal: as the supervisor's own look); as it is by default. */
  readonly format?: (line: string) => string;
  readonly backoff?: Backoff;
  /** The signals forwarded to the child; the supervisor stops once it has ended. */
  readonly signals?: readonly NodeJS.Signals[];
  /** How long a child may take to say it is ready before it is killed as a failed start (default 60 s). */
  readonly readyTimeoutMs?: number;
  /** The time in ms, for how long a child was ready; defaults to `Date.now`. */
  readonly now?: () => number;
  /** Runs `run` in `ms` (default `setTimeout`); returns the cancel. Tests drive the back-off's waits with it. */
  readonly after?: (ms: number, run: () => void) => () => void;
  /** The listening socket the supervisor holds and hands connections from; without it each child listens itself. */
  readonly desk?: ConnectionDesk;
}

/** The signals that stop the supervisor (by default): each goes to the child, then the supervisor ends. */
export const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];

/** How long a child that is still starting may take to end after a stop signal before it is killed. */
export const STARTING_STOP_MS = 1500;

/** A start has this long to be ready: the key check is bounded by LLM_TIMEOUT_MS (30 s by default). */
export const READY_TIMEOUT_MS = 60_000;

/** A child and its last fatal or error line: why it ended, in its own words. */
interface Child {
  readonly process: ChildProcess;
  readonly cause: () => string | undefined;
}

function watch(child: ChildProcess, output: NodeJS.WritableStream, format: (line: string) => string = (line) => line): Child {
  let cause: string | undefined;
  if (child.stdout) {
    createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) => {
      output.write(`${format(line)}\n`);
      try {
        const entry = JSON.parse(line) as { level?: number; msg?: string };
        if ((entry.level ?? 0) >= 50 && typeof entry.msg === 'string') cause = entry.msg;
      } catch {
        // Not a JSON line (a pretty one, a stray print): passed through, not read.
      }
    });
  }
  return { process: child, cause: () => cause };
}

function afterTimeout(ms: number, run: () => void): () => void {
  const timer = setTimeout(run, ms);
  return () => clearTimeout(timer);
}

const alive = (child: ChildProcess | undefined): child is ChildProcess =>
  child !== undefined && child.exitCode === null && child.signalCode === null;

/**
 * `hub serve --supervise`: runs the service in a child and starts it again after any exit (the
 * seed's exit on a model failure, a crash): at once after a child that ran steadily, with a
 * growing back-off while new children keep failing before they are ready or within seconds of it
 * (`Backoff.steadyMs`). A child that is not ready within `readyTimeoutMs` (a store that hangs its
 * start, say) is killed and counts as a failed start. Once a child is ready, a standby child is
 * loaded beside it, so that a restart does not wait for Node and the modules to load. The very
 * first child failing before it is ready (a bad key, a missing model, a damaged store) is a
 * configuration to fix, not a blip: the supervisor ends with status 1. SIGTERM and SIGINT go to
 * the child; the supervisor ends with it, with status 0 whatever the child did. Resolves with the
 * supervisor's exit status.
 */
export function supervise(options: SuperviseOptions): Promise<number> {
  const { logger, output } = options;
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const signals = options.signals ?? STOP_SIGNALS;
  const readyTimeoutMs = options.readyTimeoutMs ?? READY_TIMEOUT_MS;
  const now = options.now ?? Date.now;
  const after = options.after ?? afterTimeout;
  return new Promise<number>((resolve) => {
    let current: ChildProcess | undefined;
    let standby: Child | undefined;
    let stopping: NodeJS.Signals | undefined;
    let everReady = false;
    let failuresInARow = 0;
    let restarts = 0;
    /** Cancels the pending restart, or the pending load of the next standby. */
    let cancelRestart: (() => void) | undefined;
    let cancelStandby: (() => void) | undefined;
    /** The back-off holds the next Node process (a standby too) until then. */
    let nextProcessAt = 0;

    /** The children that said they were ready. */
    const readyChildren = new WeakSet<ChildProcess>();
    /** Children draining after a model failure while their successor serves. */
    const draining = new Set<ChildProcess>();
    const finish = (code: number): void => {
      for (const signal of signals) process.removeListener(signal, forward);
      options.desk?.close();
      if (alive(standby?.process)) standby.process.kill('SIGTERM');
      for (const child of draining) if (alive(child)) child.kill('SIGTERM');
      logger.flush();
      resolve(code);
    };
    function forward(signal: NodeJS.Signals): void {
      stopping = signal;
      cancelRestart?.();
      cancelStandby?.();
      logger.info({ signal }, `the supervisor got ${signal}: stopping the service`);
      for (const child of draining) if (alive(child)) child.kill(signal);
      const stopped = current;
      if (!alive(stopped)) {
        finish(0);
        return;
      }
      stopped.kill(signal);
      // A child still starting has no chats to end: one that does not stop at once (stuck in a native call) is ended.
      if (!readyChildren.has(stopped)) after(STARTING_STOP_MS, () => alive(stopped) && stopped.kill('SIGKILL'));
    }
    for (const signal of signals) process.on(signal, forward);

    const prepareStandby = (): void => {
      cancelStandby?.();
      cancelStandby = undefined;
      if (stopping || alive(standby?.process)) return;
      const wait = nextProcessAt - now();
      if (wait > 0) {
        cancelStandby = after(wait, prepareStandby);
        return;
      }
      const next = watch(options.start(true, everReady), output, options.format);
      standby = next;
      next.process.on('message', (message: unknown) => {
        if ((message as { type?: unknown } | null)?.type === LOADED_MESSAGE.type) {
          logger.info({ pid: next.process.pid }, 'a standby service has loaded: a restart will not wait for Node to start');
        }
      });
      next.process.on('exit', () => {
        if (standby === next) standby = undefined;
      });
    };

    /** One more service ended (`readyAt`: when it was ready, if ever): the count in a row and the wait before the next process. */
    const countFailure = (readyAt: number | undefined): NextStart => {
      const next = nextStart(failuresInARow, readyAt === undefined ? undefined : now() - readyAt, backoff);
      failuresInARow = next.failuresInARow;
      restarts += 1;
      nextProcessAt = now() + next.delayMs;
      return next;
    };

    /** Serves with the standby when there is one (it has loaded already), else with a new child. */
    const serve = (): void => {
      const next = alive(standby?.process) ? standby : undefined;
      standby = undefined;
      if (next) next.process.send(SERVE_MESSAGE);
      follow(next ?? watch(options.start(false, everReady), output, options.format));
    };

    const follow = ({ process: child, cause }: Child): void => {
      current = child;
      let readyAt: number | undefined;
      let timedOut = false;
      const deadline = setTimeout(() => {
        timedOut = true;
        logger.error(
          { pid: child.pid, readyTimeoutMs },
          `the service was not ready within ${readyTimeoutMs} ms: ending it (its last error line, if any, says why)`,
        );
        child.kill('SIGKILL');
      }, readyTimeoutMs);
      // A successor takes over from a draining child once it is ready, not while it initializes: the
      // connections wait meanwhile, so no chat is answered 503 (a first start serves `initializing` at once).
      const successor = draining.size > 0;
      child.on('message', (message: unknown) => {
        const type = (message as { type?: unknown } | null)?.type;
        if (type === ACCEPTING_MESSAGE.type && !successor) options.desk?.serveWith(child);
        else if (type === DRAINING_MESSAGE.type && options.desk && readyAt !== undefined && child === current && !stopping) {
          // The successor takes the new connections now; this one ends its chats in flight, then exits.
          options.desk.stopServingWith(child);
          draining.add(child);
          const why = cause();
          const { delayMs } = countFailure(readyAt);
          // A standby that has loaded takes over at once (the hand-over's promise: no connection
          // waits); the back-off holds the next Node process, the standby after it, or, when none has
          // loaded, the successor itself (the connections wait in the supervisor meanwhile).
          const handOver = alive(standby?.process);
          logger.warn(
            { pid: child.pid, cause: why, restarts, delayMs, failuresInARow, readyBefore: true },
            `the service failed${why ? ` (${why})` : ''} and drains its chats in flight: ${
              handOver
                ? 'the standby takes new connections now'
                : delayMs === 0
                  ? 'the next one starts now'
                  : `the next one starts in ${delayMs} ms`
            }${delayMs === 0 ? '' : ` (${failuresInARow} services in a row failed within ${backoff.steadyMs} ms of being ready)`}`,
          );
          if (handOver) serve();
          else cancelRestart = after(delayMs, serve);
        } else if (type === READY_MESSAGE.type) {
          if (successor) options.desk?.serveWith(child);
          clearTimeout(deadline);
          readyChildren.add(child);
          readyAt = now();
          everReady = true;
          prepareStandby();
        }
      });
      child.on('exit', (code, signal) => {
        clearTimeout(deadline);
        const ended = timedOut ? 'was not ready in time' : signal === null ? `exited with status ${code}` : `was ended by ${signal}`;
        const why = { code, signal, cause: cause(), pid: child.pid };
        options.desk?.stopServingWith(child);
        if (draining.delete(child)) {
          logger.info(why, `the service that drained ${ended}; its successor serves`);
          if (alive(current) && current.connected) current.send(PREDECESSOR_GONE_MESSAGE);
          return;
        }
        if (stopping) {
          logger.info(why, `the service ${ended}; the supervisor stops`);
          finish(0);
          return;
        }
        if (!everReady) {
          logger.error(why, `the service ${ended} before it was ready: not restarting it (fix the cause and start again)`);
          finish(1);
          return;
        }
        const ready = readyAt !== undefined;
        const { delayMs } = countFailure(readyAt);
        const soon = ready ? ` within ${backoff.steadyMs} ms of being ready` : ' before it was ready';
        const when = delayMs === 0 ? 'at once' : `in ${delayMs} ms (${failuresInARow} starts in a row ended${soon})`;
        logger.warn(
          { ...why, restarts, delayMs, failuresInARow, readyBefore: ready },
          `the service ${ended}${ready ? '' : ' before it was ready'}${why.cause ? ` (${why.cause})` : ''}: restarting it ${when}`,
        );
        cancelRestart = after(delayMs, serve);
      });
    };
    serve();
  });
}
