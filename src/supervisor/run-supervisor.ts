import { spawn } from 'node:child_process';
import { KEY_CHECKED_VARIABLE } from '../config/chat-config.js';
import { isDebugEnabled, prettyLines } from '../runtime/logger.js';
import { Redactor } from '../runtime/secrets.js';
import { serviceLogger } from '../service/run-chat-service.js';
import { STOP_SIGNALS, supervise } from './supervise.js';
import { ConnectionDesk } from './connection-desk.js';
import { loadChatConfig } from '../config/chat-config.js';

/**
 * `hub serve --supervise` as the CLI runs it: `hub serve` in a child (the same node, flags and
 * script), its log lines passed through on stdout, an IPC channel for its readiness, stderr shared.
 */
export async function runSupervisor(): Promise<number> {
  const logger = serviceLogger(isDebugEnabled(process.env), Redactor.fromEnv(process.env)).child({ component: 'supervisor' });
  const script = process.argv[1];
  if (script === undefined) throw new Error('cannot tell which script to run as the service');
  // The supervisor holds the port for the children's whole succession (a bad setting throws ConfigError, as `hub serve` does).
  const { port, host } = loadChatConfig(process.env);
  // A stop signal from the moment the port is opened (a process manager may send one as soon as it
  // reads `Server listening`) is held, then handled as soon as the supervisor listens for signals:
  // without a listener, Node would die of it at once, no clean stop, no status 0.
  const held: NodeJS.Signals[] = [];
  const hold = (signal: NodeJS.Signals): number => held.push(signal);
  for (const signal of STOP_SIGNALS) process.on(signal, hold);
  const release = (): void => {
    for (const signal of STOP_SIGNALS) process.off(signal, hold);
  };
  // A port it cannot open ends the supervisor (status 1): the signals are Node's again.
  const desk = await ConnectionDesk.open(port, host, logger).catch((error: unknown) => {
    release();
    throw error;
  });
  // The children serve this port (their page and log lines say it): the one given for PORT=0 too.
  process.env.PORT = String(desk.port);
  const supervised = supervise({
    logger,
    desk,
    output: process.stdout,
    // The children write JSON to the pipe; a terminal shows their lines as it shows the supervisor's.
    ...(process.stdout.isTTY ? { format: await prettyLines() } : {}),
    start: (standby, keyChecked) =>
      spawn(process.execPath, [...process.execArgv, script, 'serve', '--supervised', ...(standby ? ['--standby'] : [])], {
        stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
        // The key was checked at the first start: a restart does not ask the provider again.
        env: keyChecked ? { ...process.env, [KEY_CHECKED_VARIABLE]: '1' } : process.env,
      }),
  });
  release();
  for (const signal of held) process.emit(signal, signal);
  return supervised;
}
