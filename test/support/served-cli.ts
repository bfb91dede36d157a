import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Test } from 'tap';
import { ROOT } from './built-cli.js';
import { eventually, settlesWithin } from '../../testkit/eventually.js';
import { testDir } from './test-dir.js';
import { untraced } from '../../testkit/untraced.js';

// `hub serve` as a user runs it: the built binary in its own process (npm test builds first).
const BIN = join(ROOT, 'bin', 'run.js');
/** How long a start may take to listen, or an ended process to exit: a few seconds on a loaded machine. */
const BOUND_MS = 30_000;

export interface Run {
  readonly pid: number | undefined;
  readonly lines: Array<Record<string, unknown>>;
  readonly stderr: () => string;
  /** The exit code; null when a signal ended it (see `signal`). Rejects if the process has not ended within 30 s of being awaited. */
  readonly exited: Promise<number | null>;
  /** The signal that ended the process, once it has ended. */
  readonly signal: () => NodeJS.Signals | null;
  /** Resolves with the address once the server listens; rejects if it has not said so within 30 s. */
  readonly listening: Promise<string>;
  kill(signal: NodeJS.Signals): void;
}

/**
 * Starts `node bin/run.js serve …args` on 127.0.0.1, port 0, with the test's
 * environment minus any chat setting, plus `env`. The address comes from the
 * log line fastify writes once it listens.
 */
export function serve(t: Test, env: Record<string, string>, args: readonly string[] = []): Run {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(LLM_|CHAT_|PORT$|HOST$|EVENT_LOG$|EMOTIONS_FILE$|DRIFT_|DEBUG$)/.test(name)),
  );
  const child = spawn(...untraced(process.execPath, [BIN, 'serve', ...args]), {
    env: { ...clean, PORT: '0', HOST: '127.0.0.1', EMOTIONS_FILE: env.EMOTIONS_FILE ?? join(testDir(t), 'emotions.json'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.teardown(() => child.kill('SIGKILL'));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines: Array<Record<string, unknown>> = [];
  let signal: NodeJS.Signals | null = null;
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code, by) => {
      signal = by;
      resolve(code);
    }),
  );
  const listening = settlesWithin(
    'the `Server listening at` line',
    new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).on('line', (line) => {
        const entry = JSON.parse(line) as Record<string, unknown>;
        lines.push(entry);
        const match = /^Server listening at (http:\/\/[\d.]+:\d+)$/.exec(String(entry.msg));
        if (match) resolve(match[1]!);
      });
      void exited.then((code) => reject(new Error(`exited with ${code} before listening: ${stderr}`)));
    }),
    BOUND_MS,
  );
  listening.catch(() => undefined);
  return {
    pid: child.pid,
    lines,
    stderr: () => stderr,
    get exited() {
      return settlesWithin('the process to exit', exited, BOUND_MS);
    },
    signal: () => signal,
    listening,
    kill: (by) => child.kill(by),
  };
}

/** Polls /api/is_initialized until the service has left `initializing` (at most `ms`). */
export async function settledOver(address: string, ms = 30_000): Promise<Record<string, unknown>> {
  return eventually(
    `${address} to leave initializing`,
    async () => {
      const state = (await (await fetch(`${address}/api/is_initialized`)).json()) as Record<string, unknown>;
      return state.initializing ? undefined : state;
    },
    { timeoutMs: ms, intervalMs: 5 },
  );
}
