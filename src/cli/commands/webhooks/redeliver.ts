import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { deliveredText } from '../../../webhooks/journal/entry.js';
import { WEBHOOK_SECRET_HEADER } from '../../../webhooks/secret.js';
import { postDelivery } from '../../../webhooks/send-test-delivery.js';
import { CliCommand } from '../../cli-command.js';
import { type DeliveryAnswer, deliverAndReport } from '../../delivery-answer.js';
import { CliError, ExitCode } from '../../exit-codes.js';
import { httpUrl } from '../../http-url.js';
import { journalFlag, readDeliveries } from '../../journal-source.js';
import { deliveryHeaders } from '../../listen/forward-delivery.js';

export default class WebhooksRedeliver extends CliCommand {
  static override summary = 'Send a recorded delivery again: the same body and the same Webhook-Id.';
  static override description =
    'Finds the newest delivery with that Webhook-Id in the journal and POSTs it to --to with its body as it came and its headers ' +
    '(Webhook-Id included, so a receiver’s de-duplication sees a replay), the secret from --secret (else WEBHOOK_SECRET) in X-Webhook-Secret. ' +
    'Prints the answer’s status and body; exits 6 when it is not 2xx, 5 when nothing answers.';
  static override examples = [
    '<%= config.bin %> webhooks redeliver 65a14fd933eca76f4639fc84 --journal deliveries.jsonl --to http://127.0.0.1:7860/webhooks/on_commit',
    '<%= config.bin %> webhooks redeliver 65a14fd933eca76f4639fc84 --journal deliveries.jsonl --to http://127.0.0.1:7860/webhooks/on_commit --secret my-secret',
  ];
  static override args = {
    webhookId: Args.string({ required: true, description: 'The delivery’s Webhook-Id (see `hub webhooks deliveries`).' }),
  };
  static override flags = {
    journal: journalFlag,
    to: Flags.string({ required: true, helpValue: 'URL', description: 'Where to send it, e.g. http://127.0.0.1:7860/webhooks/<name>.' }),
    secret: Flags.string({ description: 'Sent in the X-Webhook-Secret header. Default: WEBHOOK_SECRET.' }),
  };

  async run(): Promise<DeliveryAnswer> {
    const { args, flags } = await this.parse(WebhooksRedeliver);
    const url = httpUrl(flags.to, '--to');
    const entry = (await readDeliveries(flags.journal)).entries.find((candidate) => candidate.webhookId === args.webhookId);
    if (entry === undefined) throw new CliError(`No delivery with Webhook-Id ${args.webhookId} in ${flags.journal}.`, ExitCode.usage);
    const body = deliveredText(entry);
    if (body === undefined)
      throw new CliError(`The delivery ${args.webhookId} was refused before its body was read: there is nothing to send.`, ExitCode.usage);
    const secret = flags.secret ?? (this.runtime.env.WEBHOOK_SECRET || undefined);
    const headers = { ...deliveryHeaders(entry.headers), ...(secret === undefined ? {} : { [WEBHOOK_SECRET_HEADER]: secret }) };
    return deliverAndReport(
      url,
      () => postDelivery(url, body, headers, { fetch: this.runtime.fetch }),
      (line) => this.log(line),
    );
  }
}
