import type { JournalEntry } from '../../../webhooks/journal/entry.js';
import { openReplayLog } from '../../../webhooks/journal/replay-log.js';
import { type ReplayRecord, replayKey } from '../../../webhooks/recovery/replay-record.js';
import { CliCommand } from '../../cli-command.js';
import { CliError, ExitCode } from '../../exit-codes.js';
import { describeBody, journalFlag, printable, readDeliveries, skippedWarning } from '../../journal-source.js';
import { formatTable } from '../../table.js';

export default class WebhooksDeliveries extends CliCommand {
  static override summary = 'List the deliveries a receiver’s journal recorded, newest first.';
  static override description =
    'Reads the journal that `hub webhooks listen --journal FILE` or `WebhooksServer({ journal: FILE })` appends to: one row per delivery ' +
    'that carried the secret, with its Webhook-Id (for `hub webhooks redeliver`), the time received, the route, the event, the repository, ' +
    'the answer’s status and milliseconds, and the verdict of its latest replay (`redeliver`, the inspector’s Replay). ' +
    '--json prints the entries as recorded (headers and body included; never the secret), with their `replays` when there are any.';
  static override examples = [
    '<%= config.bin %> webhooks deliveries --journal deliveries.jsonl',
    '<%= config.bin %> webhooks deliveries --journal deliveries.jsonl --json | jq ".[0].body.repo"',
    '<%= config.bin %> webhooks deliveries --journal redis://127.0.0.1:6379/0',
  ];
  static override flags = { journal: journalFlag };

  async run(): Promise<(JournalEntry & { replays?: ReplayRecord[] })[]> {
    const { flags } = await this.parse(WebhooksDeliveries);
    const { entries, skipped } = await readDeliveries(flags.journal);
    const warning = skippedWarning(flags.journal, skipped);
    if (warning !== undefined) this.warn(warning);
    const replays = await replaysByDelivery(flags.journal);
    const rows = entries.map((entry) => {
      const { event, repo } = describeBody(entry.body);
      const latest = replays.get(replayKey(entry))?.at(-1);
      return [
        entry.webhookId ?? '-',
        entry.receivedAt,
        entry.route === '' ? '/webhooks' : entry.route,
        event,
        repo,
        String(entry.status),
        String(entry.ms),
        latest === undefined ? '-' : `${latest.verdict} (${latest.status ?? 'no answer'})`,
      ].map(printable);
    });
    this.log(
      rows.length === 0
        ? 'No deliveries.'
        : formatTable(['WEBHOOK ID', 'RECEIVED', 'ROUTE', 'EVENT', 'REPO', 'STATUS', 'MS', 'REPLAY'], rows),
    );
    return entries.map((entry) => {
      const found = replays.get(replayKey(entry));
      return found === undefined ? entry : { ...entry, replays: found };
    });
  }
}

/** The replays of each delivery, oldest first. */
async function replaysByDelivery(journal: string): Promise<Map<string, ReplayRecord[]>> {
  const byDelivery = new Map<string, ReplayRecord[]>();
  let records: ReplayRecord[];
  try {
    const log = await openReplayLog(journal);
    try {
      records = await log.read();
    } finally {
      await log.close();
    }
  } catch (error) {
    throw new CliError(`Cannot read the replays of ${journal}: ${(error as Error).message}`, ExitCode.usage);
  }
  for (const record of records) {
    const key = replayKey(record);
    byDelivery.set(key, [...(byDelivery.get(key) ?? []), record]);
  }
  return byDelivery;
}
