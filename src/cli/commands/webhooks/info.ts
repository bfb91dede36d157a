import * as Flags from '@oclif/core/flags';
import { getWebhook } from '../../../hub/get-webhook.js';
import { HubCommand } from '../../hub-command.js';
import { webhookIdArg } from '../../webhook-flags.js';
import { webhookDetails, webhookJson } from '../../webhook-view.js';

export default class WebhooksInfo extends HubCommand {
  static override summary = 'Show full details for a single webhook.';
  static override examples = [
    '<%= config.bin %> webhooks info 654bbbc16f2ec14d77f109cc',
    '<%= config.bin %> webhooks info 654bbbc16f2ec14d77f109cc --json --show-secret',
  ];
  static override args = { webhookId: webhookIdArg };
  static override flags = {
    'show-secret': Flags.boolean({ description: "Print the webhook's secret (hidden by default)." }),
  };

  async run(): Promise<Record<string, unknown>> {
    const { args, flags } = await this.parse(WebhooksInfo);
    const webhook = await getWebhook(args.webhookId, await this.hubOptions(flags.token));
    this.log(webhookDetails(webhook, flags['show-secret']));
    return webhookJson(webhook, flags['show-secret']);
  }
}
