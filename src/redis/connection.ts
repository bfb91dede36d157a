import { Redis, type ChainableCommander, type RedisOptions } from 'ioredis';
import type { Logger } from '../runtime/logger.js';
import { RedisUnavailableError } from './errors.js';
import { withoutCredentials } from '../runtime/url-credentials.js';

/** How long a command may wait for its answer before it fails (a chat then answers 503). */
export const DEFAULT_COMMAND_TIMEOUT_MS = 2000;

/**
 * Fail fast, reconnect forever. With the offline queue off, a command issued while Redis is away
 * rejects at once instead of waiting; with no retries and no resend, a command cut off by a lost
 * connection rejects rather than running a second time after the reconnect (an append must never
 * be applied twice). The client itself keeps reconnecting, at most a second apart.
 */
function redisOptions(name: string, commandTimeoutMs: number | undefined): RedisOptions {
  return {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    commandTimeout: commandTimeoutMs,
    connectTimeout: 5000,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
    connectionName: name,
  };
}

export interface ConnectOptions {
  /** Shown in `CLIENT LIST` and in the log lines about this connection. */
  readonly name: string;
  readonly logger: Logger;
  /** Undefined: no timeout (the connection that blocks on the stream). */
  readonly commandTimeoutMs?: number;
}

/**
 * Logs one line when the connection is lost and one when it is back, never the URL's password.
 * Errors before the first `ready` are the failed connect's, which `connectRedis` reports.
 */
function watchConnection(client: Redis, where: string, name: string, logger: Logger): void {
  let up: boolean | undefined;
  const lost = (reason: string): void => {
    if (up !== true) return;
    up = false;
    logger.warn({ redis: where, connection: name, reason }, `Redis connection ${name} lost (${reason}); reconnecting`);
  };
  client.on('error', (error: Error) => lost(error.message));
  client.on('close', () => lost('connection closed'));
  client.on('ready', () => {
    if (up === false) logger.info({ redis: where, connection: name }, `Redis connection ${name} restored`);
    up = true;
  });
}

/**
 * Opens a connection and waits until it is ready. Unreachable → RedisUnavailableError naming the
 * URL without its password, and nothing left running.
 */
export async function connectRedis(url: string, options: ConnectOptions): Promise<Redis> {
  const where = withoutCredentials(url);
  const client = new Redis(url, redisOptions(options.name, options.commandTimeoutMs));
  watchConnection(client, where, options.name, options.logger);
  // connect() itself only says "Connection is closed."; the socket's error says why.
  let cause: Error | undefined;
  const remember = (error: Error): void => {
    cause ??= error;
  };
  client.on('error', remember);
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    const reason = (cause ?? (error as Error)).message;
    throw new RedisUnavailableError(`cannot connect to Redis at ${where}: ${reason}`, { cause: cause ?? error });
  } finally {
    client.off('error', remember);
  }
  return client;
}

/** Resolves at the client's next `ready` (or at once if it is ready), or when `signal` aborts. */
export function whenReady(client: Redis, signal: AbortSignal): Promise<void> {
  if (client.status === 'ready' || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      client.off('ready', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    client.on('ready', done);
    signal.addEventListener('abort', done);
  });
}

/** Wraps a failed command as RedisUnavailableError, saying what was being done. */
export function unavailable(doing: string, error: unknown): RedisUnavailableError {
  return new RedisUnavailableError(`Redis is unavailable: cannot ${doing} (${(error as Error).message})`, { cause: error });
}

/** Runs a MULTI block; resolves with each command's result, or rejects with the first command's error. */
export async function execAll(transaction: ChainableCommander): Promise<unknown[]> {
  const results = (await transaction.exec()) ?? [];
  const failed = results.find(([error]) => error)?.[0];
  if (failed) throw failed;
  return results.map(([, result]) => result);
}
