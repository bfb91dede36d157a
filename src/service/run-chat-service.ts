import closeWithGrace from 'close-with-grace';
import pino from 'pino';
import { loadChatConfig } from '../config/chat-config.js';
import { createLogger, type Logger } from '../runtime/logger.js';
import { logProcessWarnings } from '../runtime/process-warnings.js';
import { Redactor } from '../runtime/secrets.js';
import { DRAINING_MESSAGE, PREDECESSOR_GONE_MESSAGE, READY_MESSAGE } from './supervisor-messages.js';
import { startChatService, type ChatService, type SystemFactory } from './chat-service.js';

export interface RunChatServiceOptions {
  /** Defaults to the actor system. */
  readonly createSystem?: SystemFactory;
  readonly env?: NodeJS.ProcessEnv;
  /** Defaults to a logger configured from the environment (`DEBUG`). */
  readonly logger?: Logger;
  /** How long a graceful stop may take before the process is ended anyway. */
  readonly graceMs?: number;
  /** Run by `hub serve --supervise`: report readiness on the IPC channel, stop when the supervisor is gone. */
  readonly supervised?: boolean;
}

/**
 * Pretty lines on a terminal; otherwise JSON written synchronously, so that
 * lines keep their order and the last ones are out before an exit.
 */
export function serviceLogger(debug: boolean, redactor: Redactor): Logger {
  if (process.stdout.isTTY) return createLogger({ debug, redactor });
  return createLogger({ debug, redactor, pretty: false, destination: pino.destination({ dest: 1, sync: true }) });
}

/**
 * `hub serve`: reads the environment (a bad value throws ConfigError naming
 * the variable), starts the service and stops it gracefully on SIGINT,
 * SIGTERM or an uncaught error: no new requests, drift stopped, state and
 * event log flushed, server closed.
 */
export async function runChatService(options: RunChatServiceOptions = {}): Promise<ChatService> {
  const env = options.env ?? process.env;
  const config = loadChatConfig(env);
  // One list of secrets for the log, the event log and the error bodies.
  const redactor = Redactor.fromEnv(env);
  const logger = options.logger ?? serviceLogger(config.debug, redactor);
  logProcessWarnings(logger);
  const starting = startChatService({
    config,
    logger,
    redactor,
    createSystem: options.createSystem,
    handedConnections: options.supervised === true && process.send !== undefined,
  });
  // Installed before the start completes: the server answers before the store and the system are
  // loaded, and a signal in that window (a supervisor that stops what it sees healthy) must still
  // stop it gracefully, once it has started, rather than kill it.
  const grace = closeWithGrace(
    { delay: options.graceMs ?? 10_000, logger: { error: (message: unknown) => logger.error(message) } },
    async ({ signal, err }) => {
      const started = await starting.catch(() => undefined); // a failed start closed what it had opened
      if (err) logger.error({ err }, 'unexpected error: stopping the chat service');
      else logger.info({ signal }, 'stopping the chat service');
      await started?.close();
      logger.info('the chat service stopped');
      logger.flush();
    },
  );
  const service = await starting.catch((error: unknown) => {
    grace.uninstall();
    throw error;
  });
  if (options.supervised && process.send) reportToSupervisor(service);
  return service;
}

/**
 * Under `hub serve --supervise`: tells the supervisor once the service serves (then a later exit is
 * a blip to restart, not a configuration to fix), and stops gracefully if the supervisor is gone.
 */
function reportToSupervisor(service: ChatService): void {
  let served = false;
  const phases = service.bus.on('system.phase.changed').subscribe(({ phase }) => {
    // Draining after a model failure: the supervisor hands new connections to the next process now.
    // (A start that fails has nothing to drain: the supervisor decides on its exit.)
    if (phase === 'failed') {
      phases.unsubscribe();
      if (served) process.send?.(DRAINING_MESSAGE);
    } else if (phase === 'ready' || phase === 'keyMissing') {
      served = true;
      process.send?.(READY_MESSAGE);
    }
  });
  process.on('message', (message: unknown) => {
    if ((message as { type?: unknown } | null)?.type === PREDECESSOR_GONE_MESSAGE.type) service.adoptPredecessorWrites();
  });
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
  // The channel alone must not keep the process alive.
  process.channel?.unref();
}
