import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

/** What a benchmark server process says over IPC. */
export type ChildMessage =
  | { readonly kind: 'listening'; readonly url: string }
  | { readonly kind: 'stats'; readonly stats: Record<string, number> }
  | { readonly kind: 'cpu'; readonly micros: number };

/** A server under measurement, in its own process so it never shares a core's event loop with the load generator. */
export interface ServerProcess {
  readonly url: string;
  /** Asks the child for its figures (memory after GC, counters). */
  stats(): Promise<Record<string, number>>;
  /** The CPU time (user and system) the child has used so far, in microseconds. */
  cpuMicros(): Promise<number>;
  stop(): Promise<void>;
}

export async function startServerProcess(script: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const child: ChildProcess = fork(fileURLToPath(new URL(`../servers/${script}.js`, import.meta.url)), [], {
    env: { ...process.env, DEBUG: '0', ...env },
    // BENCH_PROFILE=dir writes a CPU profile of each server process there, for finding what to fix.
    execArgv: ['--expose-gc', ...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [])],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const [message] = (await Promise.race([
    once(child, 'message'),
    once(child, 'exit').then(([code]) => Promise.reject(new Error(`${script} exited with ${String(code)} before listening`))),
  ])) as [ChildMessage];
  if (message.kind !== 'listening') throw new Error(`${script} said ${message.kind} before listening`);
  return {
    url: message.url,
    async stats() {
      child.send('stats');
      for (;;) {
        const [reply] = (await once(child, 'message')) as [ChildMessage];
        if (reply.kind === 'stats') return reply.stats;
      }
    },
    async cpuMicros() {
      child.send('cpu');
      for (;;) {
        const [reply] = (await once(child, 'message')) as [ChildMessage];
        if (reply.kind === 'cpu') return reply.micros;
      }
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Called by a server script once it listens; answers `stats` requests with `collect()`. */
export function reportListening(url: string, collect: () => Record<string, number> = memoryAfterGc): void {
  process.on('message', (request) => {
    if (request === 'stats') process.send?.({ kind: 'stats', stats: collect() } satisfies ChildMessage);
    if (request === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send?.({ kind: 'cpu', micros: user + system } satisfies ChildMessage);
    }
  });
  process.send?.({ kind: 'listening', url } satisfies ChildMessage);
}

/** Resident memory after a full collection, in bytes (needs --expose-gc). */
export function memoryAfterGc(): Record<string, number> {
  globalThis.gc?.();
  const { rss, heapUsed, heapTotal } = process.memoryUsage();
  return { rss, heapUsed, heapTotal, ...residentParts() };
}

/**
 * Resident memory in its parts (Linux): `rssAnon` is the process's own, `rssFile` the pages of
 * mapped files, such as the embedded database's, which the operating system's page cache holds
 * and reclaims. Empty where /proc is not there.
 */
function residentParts(): Record<string, number> {
  let status: string;
  try {
    status = readFileSync('/proc/self/status', 'utf8');
  } catch {
    return {};
  }
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
  return { rssAnon: kb('RssAnon'), rssFile: kb('RssFile') };
}
