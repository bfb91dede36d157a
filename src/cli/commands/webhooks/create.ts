import * as Flags from '@oclif/core/flags';
import { createWebhook } from '../../../hub/create-webhook.js';
import { createWebhookBody } from '../../../hub/webhook-input.js';
import type { WebhookDomain } from '../../../hub/types.js';
import { HubCommand } from '../../hub-command.js';
import { parseWatch, requiredWatchFlag, targetOf, webhookFlags } from '../../webhook-flags.js';
import { webhookJson } from '../../webhook-view.js';

export default class WebhooksCreate extends HubCommand {
  static override summary = 'Create a new webhook.';
  static override description =
    'Provide either --url (the hub POSTs payloads there) or --job-id (the hub triggers that job), but not both.';
  static override examples = [
    '<%= config.bin %> webhooks create --url https://example.com/hook --watch model:gpt2 --domain repo',
    '<%= config.bin %> webhooks create --url https://example.com/hook --watch user:julien-c --watch org:HuggingFaceH4 --secret my-secret',
    '<%= config.bin %> webhooks create --job-id 6880a3d0e7f3c1b2a4d5e6f7 --watch dataset:stanfordnlp/imdb',
  ];
  static override flags = {
    ...webhookFlags,
    watch: requiredWatchFlag,
    'job-id': Flags.string({ description: 'Id of a job to trigger instead of calling a URL.' }),
  };

  async run(): Promise<Record<string, unknown>> {
    const { flags } = await this.parse(WebhooksCreate);
    const input = {
      ...targetOf(flags),
      watched: parseWatch(flags.watch),
      domains: flags.domain as WebhookDomain[] | undefined,
      secret: flags.secret,
    };
    // Checked before the token is looked up: bad input is a usage error (exit 2) with or without a token.
    createWebhookBody(input);
    const webhook = await createWebhook({ ...input, ...(await this.hubOptions(flags.token)) });
    this.log(`Created webhook ${webhook.id}`);
    return webhookJson(webhook);
  }
}
