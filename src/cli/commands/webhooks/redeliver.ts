import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { deliveredText, type JournalEntry } from '../../../webhooks/journal/entry.js';
import { openReplayLog, type ReplayLog } from '../../../webhooks/journal/replay-log.js';
import { failedToResend } from '../../../webhooks/recovery/failed-plan.js';
import { outcomeOf, type ReplayRecord } from '../../../webhooks/recovery/replay-record.js';
import { CliCommand } from '../../cli-command.js';
import { type DeliveryAnswer, deliverAndReport } from '../../delivery-answer.js';
import { parseDuration } from '../../duration.js';
import { CliError, ExitCode } from '../../exit-codes.js';
import { httpUrl } from '../../http-url.js';
import { describeBody, journalFlag, printable, readDeliveries } from '../../journal-source.js';
import { resendDelivery, type ResendOutcome } from '../../resend-delivery.js';
import { formatTable } from '../../table.js';
import { urlWithoutQuery } from '../../../runtime/url-credentials.js';

/** What `--failed` did: how many it sent, how many now pass, and each replay. */
export interface BulkRedelivery {
  readonly sent: number;
  readonly passing: number;
  readonly failing: number;
  readonly replays: readonly ReplayRecord[];
}

export default class WebhooksRedeliver extends CliCommand {
  static override summary = 'Send a recorded delivery again (the same body and Webhook-Id), or every failed one with --failed.';
  static override description =
    'Finds the newest delivery with that Webhook-Id in the journal and POSTs it to --to (default: the forward target `listen` recorded) ' +
    'with its body as it came and its headers (Webhook-Id included, so a receiver’s de-duplication sees a replay), the secret from --secret ' +
    '(else WEBHOOK_SECRET) in X-Webhook-Secret. Prints the answer’s status and body; exits 6 when it is not 2xx, 5 when nothing answers. ' +
    'With --failed instead of an id: every delivery of the window (--since) whose latest attempt failed (5xx, or no answer) is sent once, ' +
    'oldest first, each replay recorded beside the journal with its verdict; a second run sends only what failed again, so one right ' +
    'after a run where all passed sends nothing. Prints one line per replay and a summary; exits 6 while any still fails.';
  static override examples = [
    '<%= config.bin %> webhooks redeliver 65a14fd933eca76f4639fc84 --journal deliveries.jsonl --to http://127.0.0.1:7860/webhooks/on_commit',
    '<%= config.bin %> webhooks redeliver 65a14fd933eca76f4639fc84 --journal deliveries.jsonl --to http://127.0.0.1:7860/webhooks/on_commit --secret my-secret',
    '<%= config.bin %> webhooks redeliver --failed --since 2h --journal deliveries.jsonl --dry-run',
    '<%= config.bin %> webhooks redeliver --failed --journal deliveries.jsonl --to http://127.0.0.1:7860/webhooks/on_commit',
  ];
  static override args = {
    webhookId: Args.string({ description: 'The delivery’s Webhook-Id (see `hub webhooks deliveries`); or --failed.' }),
  };
  static override flags = {
    journal: journalFlag,
    to: Flags.string({
      helpValue: 'URL',
      description: 'Where to send it, e.g. http://127.0.0.1:7860/webhooks/<name>. Default: the forward target `listen` recorded.',
    }),
    secret: Flags.string({ description: 'Sent in the X-Webhook-Secret header. Default: WEBHOOK_SECRET.' }),
    failed: Flags.boolean({ description: 'Send every failed delivery of the window again, once each, oldest first.' }),
    since: Flags.string({
      helpValue: 'DURATION',
      dependsOn: ['failed'],
      description: 'With --failed: only deliveries received this long ago or later (30m, 2h, 7d). Default: the whole journal.',
    }),
    'dry-run': Flags.boolean({ dependsOn: ['failed'], description: 'With --failed: list what would be sent, send nothing.' }),
  };

  async run(): Promise<DeliveryAnswer | BulkRedelivery | { wouldSend: JournalEntry[] }> {
    const { args, flags } = await this.parse(WebhooksRedeliver);
    const to = flags.to === undefined ? undefined : httpUrl(flags.to, '--to');
    const secret = flags.secret ?? (this.runtime.env.WEBHOOK_SECRET || undefined);
    if (flags.failed) {
      if (args.webhookId !== undefined) throw new CliError('Give either a Webhook-Id or --failed, not both.', ExitCode.usage);
      const since = flags.since === undefined ? undefined : new Date(Date.now() - parseDuration(flags.since, '--since'));
      return this.#failed(flags.journal, since, to, secret, flags['dry-run']);
    }
    if (args.webhookId === undefined)
      throw new CliError('Give the Webhook-Id of a delivery (see `hub webhooks deliveries`), or --failed.', ExitCode.usage);
    const entry = (await readDeliveries(flags.journal)).entries.find((candidate) => candidate.webhookId === args.webhookId);
    if (entry === undefined) throw new CliError(`No delivery with Webhook-Id ${args.webhookId} in ${flags.journal}.`, ExitCode.usage);
    checkBodyKept(entry, args.webhookId);
    const url = to ?? targetOf([entry]).get(entry)!;
    const replays = await openReplays(flags.journal);
    let outcome: ResendOutcome;
    try {
      const sent = await resendDelivery(entry, url, { secret, fetch: this.runtime.fetch, by: 'redeliver' });
      // Recorded with its verdict, as a --failed or an inspector replay is: `deliveries` shows it.
      await replays.append(sent.record);
      outcome = sent.outcome;
    } finally {
      await replays.close();
    }
    return deliverAndReport(
      url,
      async () => {
        if ('cause' in outcome) throw new Error(outcome.cause);
        return outcome.response;
      },
      (line) => this.log(line),
    );
  }

  async #failed(
    journal: string,
    since: Date | undefined,
    to: URL | undefined,
    secret: string | undefined,
    dryRun: boolean,
  ): Promise<BulkRedelivery | { wouldSend: JournalEntry[] }> {
    const { entries } = await readDeliveries(journal);
    const log = await openReplays(journal);
    try {
      const resend = failedToResend(entries, await log.read(), since).filter((entry) => deliveredText(entry) !== undefined);
      const targets = to === undefined ? targetOf(resend) : new Map(resend.map((entry) => [entry, to]));
      if (resend.length === 0) {
        this.log('No failed delivery to send again.');
        return dryRun ? { wouldSend: [] } : { sent: 0, passing: 0, failing: 0, replays: [] };
      }
      if (dryRun) {
        this.log(`Would send ${plural(resend.length, 'failed delivery', 'failed deliveries')} (dry run: nothing sent):`);
        this.log(
          formatTable(
            ['WEBHOOK ID', 'RECEIVED', 'EVENT', 'REPO', 'STATUS', 'TO'],
            resend.map((entry) => row(entry, targets.get(entry)!)),
          ),
        );
        return { wouldSend: resend };
      }
      const replays: ReplayRecord[] = [];
      for (const entry of resend) {
        const { record: replay } = await resendDelivery(entry, targets.get(entry)!, { secret, fetch: this.runtime.fetch, by: 'redeliver' });
        await log.append(replay);
        replays.push(replay);
        const { event, repo } = describeBody(entry.body);
        this.log(
          [entry.webhookId ?? '-', event, repo, `→ ${replay.status ?? 'no answer'}`, replay.verdict]
            .map((cell) => printable(String(cell)))
            .join('  '),
        );
      }
      const passing = replays.filter((replay) => outcomeOf(replay.status) === 'delivered').length;
      const result = { sent: replays.length, passing, failing: replays.length - passing, replays };
      this.log(`Sent ${result.sent}: ${result.passing} now passing, ${result.failing} still failing.`);
      if (result.failing > 0)
        throw new CliError(`${plural(result.failing, 'delivery', 'deliveries')} still failing.`, ExitCode.refused, { ...result });
      return result;
    } finally {
      await log.close();
    }
  }
}

/** The replays recorded beside `journal`; one that cannot be opened is a usage error, before anything is sent. */
function openReplays(journal: string): Promise<ReplayLog> {
  return openReplayLog(journal).catch((error: Error) => {
    throw new CliError(`Cannot read the replays of ${journal}: ${error.message}`, ExitCode.usage);
  });
}

/** Where each delivery goes without --to: the forward target its `listen` recorded; none is a usage error. */
function targetOf(entries: readonly JournalEntry[]): Map<JournalEntry, URL> {
  const missing = entries.filter((entry) => entry.target === undefined);
  if (missing.length > 0)
    throw new CliError(
      `${plural(missing.length, 'delivery has', 'deliveries have')} no forward target in the journal (it was not written by ` +
        '`listen --forward-to`): give --to URL.',
      ExitCode.usage,
    );
  return new Map(entries.map((entry) => [entry, httpUrl(entry.target!, 'The recorded forward target')]));
}

function checkBodyKept(entry: JournalEntry, webhookId: string): void {
  if (deliveredText(entry) === undefined)
    throw new CliError(`The delivery ${webhookId} was refused before its body was read: there is nothing to send.`, ExitCode.usage);
}

function row(entry: JournalEntry, to: URL): string[] {
  const { event, repo } = describeBody(entry.body);
  return [entry.webhookId ?? '-', entry.receivedAt, event, repo, String(entry.status), urlWithoutQuery(to)].map(printable);
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}
