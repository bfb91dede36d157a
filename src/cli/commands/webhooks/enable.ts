import { enableWebhook } from '../../../hub/enable-webhook.js';
import { HubCommand } from '../../hub-command.js';
import { webhookIdArg } from '../../webhook-flags.js';
import { webhookJson } from '../../webhook-view.js';

export default class WebhooksEnable extends HubCommand {
  static override summary = 'Enable a disabled webhook.';
  static override examples = ['<%= config.bin %> webhooks enable 654bbbc16f2ec14d77f109cc'];
  static override args = { webhookId: webhookIdArg };

  async run(): Promise<Record<string, unknown>> {
    const { args, flags } = await this.parse(WebhooksEnable);
    const webhook = await enableWebhook(args.webhookId, await this.hubOptions(flags.token));
    this.log(`Enabled webhook ${webhook.id}`);
    return webhookJson(webhook);
  }
}
