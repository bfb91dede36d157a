import { spawn, type ChildProcess } from 'node:child_process';
import { ROOT, requireBuilt } from '../support/built-cli.js';
import { untraced } from '../../testkit/untraced.js';

export { ROOT };

export interface RunningScript {
  readonly child: ChildProcess;
  /** Everything printed so far. */
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** Resolves when the output matches, rejects when the process ends first or after `guardMs`. */
  waitFor(pattern: RegExp, guardMs?: number): Promise<RegExpExecArray>;
  /** Resolves with the exit code. */
  readonly exited: Promise<number | null>;
}

/** Runs a script with node from the repository root; the caller kills it. */
export function runScript(script: string, env: NodeJS.ProcessEnv): RunningScript {
  requireBuilt();
  const child = spawn(...untraced(process.execPath, [script]), {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  const notify = (): void => {
    for (const check of waiters) check();
  };
  child.stdout.on('data', (chunk) => {
    out += String(chunk);
    notify();
  });
  child.stderr.on('data', (chunk) => {
    err += String(chunk);
    notify();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let ended = false;
  void exited.then(() => {
    ended = true;
    notify();
  });
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor: (pattern, guardMs = 60_000) =>
      new Promise((resolve, reject) => {
        // The guard only bounds a broken run; a working one resolves as soon as the line is printed.
        const guard = setTimeout(() => finish(new Error(`timed out waiting for ${pattern}; stdout:\n${out}\nstderr:\n${err}`)), guardMs);
        const finish = (error?: Error, match?: RegExpExecArray): void => {
          clearTimeout(guard);
          waiters.delete(check);
          if (match) resolve(match);
          else reject(error);
        };
        const check = (): void => {
          const match = pattern.exec(out);
          if (match) finish(undefined, match);
          else if (ended) finish(new Error(`exited before ${pattern}; stdout:\n${out}\nstderr:\n${err}`));
        };
        waiters.add(check);
        check();
      }),
  };
}
