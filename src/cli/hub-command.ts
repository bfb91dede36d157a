import * as Flags from '@oclif/core/flags';
import type { HubOptions } from '../hub/hub-options.js';
import { CliCommand } from './cli-command.js';
import { hubAccess } from './hub-access/hub-access.js';
import { nodeFetch } from './start/node-fetch.js';

export type { CliRuntime } from './cli-command.js';

/** The commands that call the hub: --token, and the hub options resolved from the runtime's environment. */
export abstract class HubCommand extends CliCommand {
  static override baseFlags = {
    token: Flags.string({
      description: 'A User Access Token from https://huggingface.co/settings/tokens. Default: HF_TOKEN, then the token file.',
      helpGroup: 'GLOBAL',
    }),
  };

  /** The token, hub URL and fetch every hub call takes: the library itself reads no environment. */
  protected hubOptions(token: string | undefined): Promise<HubOptions> {
    return hubAccess(token, this.runtime.env, this.runtime.fetch ?? nodeFetch);
  }
}
