import { Command, Errors, Flags } from '@oclif/core';
import type { HubOptions } from '../hub/hub-options.js';
import { describeFailure } from './exit-codes.js';
import { processTerminal, type Terminal } from './terminal.js';

/** What the webhook commands take from the outside world; tests swap it to run commands in-process. */
export interface CliRuntime {
  readonly env: NodeJS.ProcessEnv;
  readonly fetch?: typeof fetch | undefined;
  readonly terminal: Terminal;
}

/** Shared by the `hub webhooks` commands: --json, --token, the runtime, and error reporting. */
export abstract class HubCommand extends Command {
  static override enableJsonFlag = true;

  static override baseFlags = {
    token: Flags.string({
      description: 'A User Access Token from https://huggingface.co/settings/tokens. Default: HF_TOKEN, then the token file.',
      helpGroup: 'GLOBAL',
    }),
  };

  static runtime: CliRuntime = { env: process.env, terminal: processTerminal };

  protected get runtime(): CliRuntime {
    return (this.constructor as typeof HubCommand).runtime;
  }

  protected hubOptions(token: string | undefined): HubOptions {
    return { token, env: this.runtime.env, fetch: this.runtime.fetch };
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
