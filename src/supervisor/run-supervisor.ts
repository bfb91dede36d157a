import { spawn } from 'node:child_process';
import { KEY_CHECKED_VARIABLE } from '../config/chat-config.js';
import { isDebugEnabled, prettyLines } from '../runtime/logger.js';
import { Redactor } from '../runtime/secrets.js';
import { serviceLogger } from '../service/run-chat-service.js';
import { supervise } from './supervise.js';
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
  const desk = await ConnectionDesk.open(port, host, logger);
  // The children serve this port (their page and log lines say it): the one given for PORT=0 too.
  process.env.PORT = String(desk.port);
  return supervise({
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
}
