import { Command } from '@oclif/core/command';
import * as Errors from '@oclif/core/errors';
import { describeFailure } from './exit-codes.js';
import { processTerminal, type Terminal } from './terminal.js';

/** What the commands take from the outside world; tests swap it to run commands in-process. */
export interface CliRuntime {
  readonly env: NodeJS.ProcessEnv;
  /** Every outside call's fetch; tests inject one (hub calls default to nodeFetch, the global fetch otherwise). */
  readonly fetch?: typeof fetch | undefined;
  readonly terminal: Terminal;
}

// A module variable, never a static property: oclif writes a command's static properties into
// oclif.manifest.json, which would ship the build's whole environment (tokens included).
let runtime: CliRuntime = { env: process.env, terminal: processTerminal };

/** The runtime now: commands outside `CliCommand` read it here. */
export function cliRuntime(): CliRuntime {
  return runtime;
}

/** Swaps the runtime (tests run commands in-process); returns the one it replaced. */
export function setCliRuntime(next: CliRuntime): CliRuntime {
  const previous = runtime;
  runtime = next;
  return previous;
}

/** Shared by the `hub webhooks` commands: --json, the runtime, and error reporting. */
export abstract class CliCommand extends Command {
  static override enableJsonFlag = true;

  protected get runtime(): CliRuntime {
    return cliRuntime();
  }

  /**
   * Every failure: a message on stderr (also with --json, whose stdout then carries the error as
   * JSON) and a status that says what kind of failure it was. Exiting here, rather than leaving it
   * to oclif, also fixes oclif 4's --json mode, which would exit 1 whatever the error.
   */
  protected override async catch(error: Error): Promise<never> {
    if (error instanceof Errors.ExitError) throw error;
    const failure = describeFailure(error);
    process.stderr.write(`Error: ${failure.message}\n`);
    if (this.jsonEnabled()) this.logJson({ error: failure.json });
    this.exit(failure.exitCode);
  }
}
