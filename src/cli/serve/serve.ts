import { ConfigError } from '../../config/chat-config.js';
import { Redactor } from '../../runtime/secrets.js';
import { ServiceStartError } from '../../service/chat-service.js';
import { runChatService } from '../../service/run-chat-service.js';
import { runSupervisor } from '../../supervisor/run-supervisor.js';
import { standBy } from '../../supervisor/standby.js';
import { DeskListenError } from '../../supervisor/connection-desk.js';

/** The flags of `hub serve`, all boolean (see `src/cli/commands/serve.ts` for what each does). */
export interface ServeFlags {
  readonly supervise: boolean;
  readonly supervised: boolean;
  readonly standby: boolean;
}

/** A start that failed for a reason the user can fix; its message is already redacted. */
export class ServeError extends Error {
  override readonly name = 'ServeError';
}

/** `hub serve`, whichever way it was reached (oclif's command, or the fast path of `bin/run.js`). */
export async function serve(flags: ServeFlags): Promise<void> {
  if (flags.standby) await standBy();
  try {
    if (flags.supervise) {
      process.exitCode = await runSupervisor();
      return;
    }
    // The service keeps the process alive; SIGINT/SIGTERM stop it gracefully.
    await runChatService({ supervised: flags.supervised });
  } catch (error) {
    // The message may quote a provider's or Redis's own words, and those may quote a secret.
    if (error instanceof ConfigError || error instanceof ServiceStartError || error instanceof DeskListenError)
      throw new ServeError(Redactor.fromEnv(process.env).redact(error.message));
    throw error;
  }
}
