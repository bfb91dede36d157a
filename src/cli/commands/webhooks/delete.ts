import * as Flags from '@oclif/core/flags';
import { deleteWebhook } from '../../../hub/delete-webhook.js';
import { CliError, ExitCode } from '../../exit-codes.js';
import { HubCommand } from '../../hub-command.js';
import { webhookIdArg } from '../../webhook-flags.js';

export default class WebhooksDelete extends HubCommand {
  static override summary = 'Delete a webhook permanently.';
  static override description =
    'Asks for confirmation first; --yes skips the question, and is required when there is no terminal to ask on.';
  static override examples = [
    '<%= config.bin %> webhooks delete 654bbbc16f2ec14d77f109cc',
    '<%= config.bin %> webhooks delete 654bbbc16f2ec14d77f109cc --yes',
  ];
  static override args = { webhookId: webhookIdArg };
  static override flags = {
    yes: Flags.boolean({ char: 'y', description: 'Skip the confirmation prompt.' }),
  };

  async run(): Promise<{ id: string; deleted: true }> {
    const { args, flags } = await this.parse(WebhooksDelete);
    const id = args.webhookId;
    if (!flags.yes) await this.#confirm(id);
    await deleteWebhook(id, await this.hubOptions(flags.token));
    this.log(`Deleted webhook ${id}`);
    return { id, deleted: true };
  }

  async #confirm(id: string): Promise<void> {
    const { terminal } = this.runtime;
    // With --json the output is for a program, and nobody is there to answer.
    if (this.jsonEnabled() || !terminal.interactive()) {
      throw new CliError(
        `Refusing to delete webhook ${id} without confirmation: there is no terminal to ask on. Pass --yes to delete it.`,
        ExitCode.usage,
      );
    }
    if (!(await terminal.confirm(`Delete webhook ${id}? This cannot be undone.`))) {
      throw new CliError(`Webhook ${id} was not deleted.`, ExitCode.aborted);
    }
  }
}
