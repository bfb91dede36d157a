import * as Flags from '@oclif/core/flags';
import type { HubOptions } from '../hub/hub-options.js';
import { CliCommand } from './cli-command.js';

export type { CliRuntime } from './cli-command.js';

/** The commands that call the hub: --token, and the hub options built from the runtime. */
export abstract class HubCommand extends CliCommand {
  static override baseFlags = {
    token: Flags.string({
      description: 'A User Access Token from https://huggingface.co/settings/tokens. Default: HF_TOKEN, then the token file.',
      helpGroup: 'GLOBAL',
    }),
  };

  protected hubOptions(token: string | undefined): HubOptions {
    return { token, env: this.runtime.env, fetch: this.runtime.fetch };
  }
}
