import { updateWebhook } from '../../../hub/update-webhook.js';
import { updateWebhookChanges } from '../../../hub/webhook-input.js';
import type { WebhookDomain } from '../../../hub/types.js';
import { CliError, ExitCode } from '../../exit-codes.js';
import { HubCommand } from '../../hub-command.js';
import { parseWatch, webhookFlags, webhookIdArg } from '../../webhook-flags.js';
import { webhookJson } from '../../webhook-view.js';

export default class WebhooksUpdate extends HubCommand {
  static override summary = 'Update an existing webhook. Only the given options change.';
  static override description = '--watch replaces the whole watched list; without it the list stays as it is.';
  static override examples = [
    '<%= config.bin %> webhooks update 654bbbc16f2ec14d77f109cc --url https://example.com/new-hook',
    '<%= config.bin %> webhooks update 654bbbc16f2ec14d77f109cc --watch model:gpt2 --watch dataset:stanfordnlp/imdb --domain repo',
  ];
  static override args = { webhookId: webhookIdArg };
  static override flags = webhookFlags;

  async run(): Promise<Record<string, unknown>> {
    const { args, flags } = await this.parse(WebhooksUpdate);
    if ([flags.url, flags.watch, flags.domain, flags.secret].every((value) => value === undefined)) {
      throw new CliError('Nothing to update: pass --url, --watch, --domain or --secret.', ExitCode.usage);
    }
    const changes = {
      url: flags.url,
      watched: flags.watch && parseWatch(flags.watch),
      domains: flags.domain as WebhookDomain[] | undefined,
      secret: flags.secret,
    };
    // Checked before the token is looked up: bad input is a usage error (exit 2) with or without a token.
    updateWebhookChanges(changes);
    const webhook = await updateWebhook(args.webhookId, { ...changes, ...(await this.hubOptions(flags.token)) });
    this.log(`Updated webhook ${webhook.id}`);
    return webhookJson(webhook);
  }
}
