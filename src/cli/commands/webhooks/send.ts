import { readFile } from 'node:fs/promises';
import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { SAMPLE_SCOPES, samplePayload, type SampleScope } from '../../../webhooks/sample-payloads.js';
import { sendTestDelivery, type TestDeliveryResponse } from '../../../webhooks/send-test-delivery.js';
import { CliCommand } from '../../cli-command.js';
import { CliError, ExitCode } from '../../exit-codes.js';

export interface SendResult {
  readonly status: number;
  readonly body: unknown;
}

export default class WebhooksSend extends CliCommand {
  static override summary = 'Send a sample delivery to a webhook receiver, the way the Hub does.';
  static override description =
    'POSTs a payload as JSON with the Hub’s headers (Content-Type: application/json, Webhook-Id, and X-Webhook-Secret when a secret is given), ' +
    'prints the answer’s status and body, and exits with status 6 when the answer is not 2xx. ' +
    `The payload is a file, or the built-in sample of an event scope (${SAMPLE_SCOPES.join(', ')}).`;

  static override examples = [
    '<%= config.bin %> webhooks send http://127.0.0.1:7860/webhooks/on_commit',
    '<%= config.bin %> webhooks send http://127.0.0.1:7860/webhooks/on_discussion --event discussion --secret my-secret',
    '<%= config.bin %> webhooks send https://my-space.hf.space/webhooks/on_commit --payload delivery.json',
  ];

  static override args = {
    url: Args.url({ required: true, description: 'The receiver’s route, e.g. http://127.0.0.1:7860/webhooks/<name>.' }),
  };

  static override flags = {
    payload: Flags.file({
      exists: true,
      description: 'A JSON file to send as the payload (instead of a built-in sample).',
      exclusive: ['event'],
    }),
    event: Flags.string({
      options: [...SAMPLE_SCOPES],
      default: 'repo.content',
      description: 'The scope whose built-in sample payload is sent.',
    }),
    secret: Flags.string({
      description: 'Sent in the X-Webhook-Secret header, as the Hub does for a webhook with a secret. Default: WEBHOOK_SECRET.',
    }),
    'webhook-id': Flags.string({ description: 'The Webhook-Id header (default: a random Hub-like id).' }),
  };

  async run(): Promise<SendResult> {
    const { args, flags } = await this.parse(WebhooksSend);
    const url = args.url;
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new CliError(`The receiver URL must be http(s), got "${url.href}".`, ExitCode.usage);
    const payload = flags.payload === undefined ? samplePayload(flags.event as SampleScope) : await readPayload(flags.payload);
    let response: TestDeliveryResponse;
    try {
      const secret = flags.secret ?? (this.runtime.env.WEBHOOK_SECRET || undefined);
      response = await sendTestDelivery(url, payload, { secret, webhookId: flags['webhook-id'], fetch: this.runtime.fetch });
    } catch (error) {
      const cause = (error as Error & { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
      throw new CliError(`Cannot reach ${url.origin}${url.pathname}: ${cause}`, ExitCode.unreachable);
    }
    const body = typeof response.body === 'string' ? response.body : JSON.stringify(response.body, null, 2);
    this.log(`HTTP ${response.status}`);
    if (body !== '') this.log(body);
    if (response.status < 200 || response.status > 299) {
      // With --json the answer goes out inside the error; without it, it is printed above.
      throw new CliError(`The receiver answered HTTP ${response.status}.`, ExitCode.refused, {
        status: response.status,
        body: response.body,
      });
    }
    return { status: response.status, body: response.body };
  }
}

async function readPayload(path: string): Promise<unknown> {
  const text = await readFile(path, 'utf8');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError(`The payload file ${path} is not JSON: ${(error as Error).message}`, ExitCode.usage);
  }
}
