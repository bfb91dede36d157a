import * as Flags from '@oclif/core/flags';
import { listWebhooks } from '../../../hub/list-webhooks.js';
import { HubCommand } from '../../hub-command.js';
import { webhookJson, webhookTable } from '../../webhook-view.js';

export default class WebhooksLs extends HubCommand {
  static override summary = 'List all webhooks of the current user.';
  static override aliases = ['webhooks:list'];
  static override examples = [
    '<%= config.bin %> webhooks ls',
    '<%= config.bin %> webhooks ls --json',
    '<%= config.bin %> webhooks ls -q | xargs -n1 <%= config.bin %> webhooks disable',
  ];
  static override flags = {
    quiet: Flags.boolean({ char: 'q', description: 'Print only the ids, one per line.', exclusive: ['json'] }),
  };

  async run(): Promise<Record<string, unknown>[]> {
    const { flags } = await this.parse(WebhooksLs);
    const webhooks = await listWebhooks(await this.hubOptions(flags.token));
    if (flags.quiet) for (const webhook of webhooks) this.log(webhook.id);
    else this.log(webhooks.length === 0 ? 'No webhooks.' : webhookTable(webhooks));
    return webhooks.map((webhook) => webhookJson(webhook));
  }
}
