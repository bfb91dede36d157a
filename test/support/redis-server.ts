import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { freePort } from '../../testkit/free-port.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Redis } from 'ioredis';
import type { Test } from 'tap';
import { connectRedis } from '../../src/redis/connection.js';
import { createLogger, type Logger } from '../../src/runtime/logger.js';

const run = promisify(execFile);

/** How long a start or a stop may take before the test fails instead of hanging. */
const BOOT_TIMEOUT_MS = 30_000;

export interface RedisServer {
  /** `redis://127.0.0.1:<port>/0` */
  readonly url: string;
  readonly port: number;
  /** Saves the data (`SHUTDOWN SAVE`) and ends the server: a restart finds everything again. */
  stop(): Promise<void>;
  /** Starts the server again on the same port and directory, with the data `stop()` saved. */
  start(): Promise<void>;
  /** Kills the server and starts it again with nothing: a Redis without persistence that restarted. */
  restartEmpty(): Promise<void>;
  /** Freezes the process (SIGSTOP): connections stay open and nothing answers. */
  freeze(): void;
  /** Resumes a frozen server (SIGCONT). */
  thaw(): void;
  /** Runs `redis-cli` against the server, e.g. `cli('XLEN', 'key')`; resolves with its trimmed output. */
  cli(...args: string[]): Promise<string>;
}

function launch(port: number, dir: string): Promise<ChildProcess> {
  // No persistence of its own (no save points, no AOF); `stop()` asks for one explicit save.
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--dbfilename', 'dump.rdb'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server did not start on port ${port} within ${BOOT_TIMEOUT_MS} ms: ${output}`));
    }, BOOT_TIMEOUT_MS);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        child.stdout!.removeAllListeners('data');
        child.stdout!.resume();
        resolve(child);
      }
    });
    child.stderr!.resume();
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`cannot run redis-server (apt-get install redis-server): ${error.message}`));
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code} before it was ready: ${output}`));
    });
  });
}

/**
 * A real `redis-server` (Debian's package) on a free loopback port, in a temporary directory,
 * without persistence. `kill()` ends it and removes the directory.
 */
async function spawnRedisServer(): Promise<RedisServer & { kill(): void }> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'emotion-hub-redis-'));
  let child: ChildProcess | undefined = await launch(port, dir);
  // Even if a test ends its process before its teardown runs, its server does not outlive it.
  const killOnExit = (): void => {
    child?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', killOnExit);
  const cli = async (...args: string[]): Promise<string> =>
    (await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { timeout: BOOT_TIMEOUT_MS })).stdout.trim();
  return {
    url: `redis://127.0.0.1:${port}/0`,
    port,
    async stop() {
      const stopping = child;
      if (stopping === undefined) return;
      child = undefined;
      const exited = new Promise((resolve) => stopping.once('exit', resolve));
      await cli('SHUTDOWN', 'SAVE').catch(() => undefined); // redis-cli sees the connection close
      await exited;
    },
    async start() {
      if (child === undefined) child = await launch(port, dir);
    },
    async restartEmpty() {
      const killed = child;
      child = undefined;
      if (killed) {
        const exited = new Promise((resolve) => killed.once('exit', resolve));
        killed.kill('SIGKILL');
        await exited;
      }
      rmSync(join(dir, 'dump.rdb'), { force: true });
      child = await launch(port, dir);
    },
    freeze: () => child?.kill('SIGSTOP'),
    thaw: () => child?.kill('SIGCONT'),
    cli,
    kill() {
      process.off('exit', killOnExit);
      child?.kill('SIGCONT');
      child?.kill('SIGKILL');
      child = undefined;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `spawnRedisServer()`, killed in the test's teardown. */
export async function startRedisServer(t: Test): Promise<RedisServer> {
  const server = await spawnRedisServer();
  t.teardown(() => server.kill());
  return server;
}

/** A client of the service's own settings (fail fast, reconnect), closed in the test's teardown. */
export async function redisClient(
  t: Test,
  url: string,
  options: { name?: string; commandTimeoutMs?: number; logger?: Logger } = {},
): Promise<Redis> {
  const client = await connectRedis(url, {
    name: options.name ?? 'test',
    logger: options.logger ?? createLogger({ debug: false, destination: { write: () => undefined } }),
    commandTimeoutMs: options.commandTimeoutMs,
  });
  t.teardown(() => client.disconnect());
  return client;
}
