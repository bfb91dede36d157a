import { disableWebhook } from '../../../hub/disable-webhook.js';
import { HubCommand } from '../../hub-command.js';
import { webhookIdArg } from '../../webhook-flags.js';
import { webhookJson } from '../../webhook-view.js';

export default class WebhooksDisable extends HubCommand {
  static override summary = 'Disable an active webhook; it is kept and can be enabled again.';
  static override examples = ['<%= config.bin %> webhooks disable 654bbbc16f2ec14d77f109cc'];
  static override args = { webhookId: webhookIdArg };

  async run(): Promise<Record<string, unknown>> {
    const { args, flags } = await this.parse(WebhooksDisable);
    const webhook = await disableWebhook(args.webhookId, await this.hubOptions(flags.token));
    this.log(`Disabled webhook ${webhook.id}`);
    return webhookJson(webhook);
  }
}
