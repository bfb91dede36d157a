import { readFile } from 'node:fs/promises';
import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import type { WebhookAction } from '../../../webhooks/payload.js';
import { SAMPLE_EVENT_NAMES, SAMPLE_EVENTS, SAMPLE_SCOPES, samplePayload, type SampleScope } from '../../../webhooks/sample-payloads.js';
import { sendTestDelivery } from '../../../webhooks/send-test-delivery.js';
import { parseAssignment, setPath } from '../../../webhooks/set-path.js';
import { CliCommand } from '../../cli-command.js';
import { type DeliveryAnswer, deliverAndReport } from '../../delivery-answer.js';
import { CliError, ExitCode } from '../../exit-codes.js';
import { httpUrl } from '../../http-url.js';

export type SendResult = DeliveryAnswer;

export default class WebhooksSend extends CliCommand {
  static override summary = 'Send a sample delivery to a webhook receiver, the way the Hub does.';
  static override description =
    'POSTs a payload as JSON with the Hub’s headers (Content-Type: application/json, Webhook-Id, and X-Webhook-Secret when a secret is given), ' +
    'prints the answer’s status and body, and exits with status 6 when the answer is not 2xx. ' +
    `The payload is a file, or the built-in sample of an event the Hub documents (${SAMPLE_EVENT_NAMES.join(', ')}); ` +
    '--set PATH=VALUE changes one field of it (the value read as JSON when it parses, else as a string).';

  static override examples = [
    '<%= config.bin %> webhooks send http://127.0.0.1:7860/webhooks/on_commit',
    '<%= config.bin %> webhooks send http://127.0.0.1:7860/webhooks/on_discussion --event discussion --action update --secret my-secret',
    '<%= config.bin %> webhooks send http://127.0.0.1:7860/webhooks/on_repo --event repo --action move --set movedTo.name=me/new-name',
    '<%= config.bin %> webhooks send http://127.0.0.1:7860/webhooks/on_commit --set repo.name=me/my-model --set repo.private=true',
    '<%= config.bin %> webhooks send https://my-space.hf.space/webhooks/on_commit --payload delivery.json',
  ];

  static override args = {
    url: Args.string({ required: true, description: 'The receiver’s route, e.g. http://127.0.0.1:7860/webhooks/<name>.' }),
  };

  static override flags = {
    payload: Flags.file({
      exists: true,
      description: 'A JSON file to send as the payload (instead of a built-in sample).',
      exclusive: ['event', 'action'],
    }),
    event: Flags.string({
      options: [...SAMPLE_SCOPES],
      default: 'repo.content',
      description: 'The scope whose built-in sample payload is sent.',
    }),
    action: Flags.string({
      options: ['create', 'update', 'delete', 'move'],
      description: `The action of the sample (default: the scope’s first). Pairs: ${SAMPLE_EVENT_NAMES.join(', ')}.`,
    }),
    set: Flags.string({
      multiple: true,
      multipleNonGreedy: true,
      helpValue: 'PATH=VALUE',
      description: 'Changes one field of the payload, e.g. repo.name=me/x, repo.private=true, repo.tags[0]=nlp. Repeatable.',
    }),
    secret: Flags.string({
      description: 'Sent in the X-Webhook-Secret header, as the Hub does for a webhook with a secret. Default: WEBHOOK_SECRET.',
    }),
    'webhook-id': Flags.string({ description: 'The Webhook-Id header (default: a random Hub-like id).' }),
  };

  async run(): Promise<SendResult> {
    const { args, flags } = await this.parse(WebhooksSend);
    const url = httpUrl(args.url, 'The receiver URL');
    const payload = flags.payload === undefined ? sample(flags.event as SampleScope, flags.action) : await readPayload(flags.payload);
    for (const assignment of flags.set ?? []) applySet(payload, assignment);
    const secret = flags.secret ?? (this.runtime.env.WEBHOOK_SECRET || undefined);
    return deliverAndReport(
      url,
      () => sendTestDelivery(url, payload, { secret, webhookId: flags['webhook-id'], fetch: this.runtime.fetch }),
      (line) => this.log(line),
    );
  }
}

function sample(scope: SampleScope, action: string | undefined): unknown {
  if (action !== undefined && !(SAMPLE_EVENTS[scope] as readonly string[]).includes(action)) {
    throw new CliError(`The Hub sends no ${scope}:${action} event. Documented: ${SAMPLE_EVENT_NAMES.join(', ')}.`, ExitCode.usage);
  }
  return samplePayload(scope, action as WebhookAction | undefined);
}

function applySet(payload: unknown, assignment: string): void {
  if (payload === null || typeof payload !== 'object') throw new CliError('--set needs a payload that is a JSON object.', ExitCode.usage);
  try {
    const { path, value } = parseAssignment(assignment);
    setPath(payload as Record<string, unknown>, path, value);
  } catch (error) {
    throw new CliError((error as Error).message, ExitCode.usage);
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
