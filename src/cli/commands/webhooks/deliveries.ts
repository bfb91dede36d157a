import type { JournalEntry } from '../../../webhooks/journal/entry.js';
import { CliCommand } from '../../cli-command.js';
import { describeBody, journalFlag, printable, readDeliveries, skippedWarning } from '../../journal-source.js';
import { formatTable } from '../../table.js';

export default class WebhooksDeliveries extends CliCommand {
  static override summary = 'List the deliveries a receiver’s journal recorded, newest first.';
  static override description =
    'Reads the journal that `hub webhooks listen --journal FILE` or `WebhooksServer({ journal: FILE })` appends to: one row per delivery ' +
    'that carried the secret, with its Webhook-Id (for `hub webhooks redeliver`), the time received, the route, the event, the repository, ' +
    'the answer’s status and milliseconds. --json prints the entries as recorded (headers and body included; never the secret).';
  static override examples = [
    '<%= config.bin %> webhooks deliveries --journal deliveries.jsonl',
    '<%= config.bin %> webhooks deliveries --journal deliveries.jsonl --json | jq ".[0].body.repo"',
    '<%= config.bin %> webhooks deliveries --journal redis://127.0.0.1:6379/0',
  ];
  static override flags = { journal: journalFlag };

  async run(): Promise<JournalEntry[]> {
    const { flags } = await this.parse(WebhooksDeliveries);
    const { entries, skipped } = await readDeliveries(flags.journal);
    const warning = skippedWarning(flags.journal, skipped);
    if (warning !== undefined) this.warn(warning);
    const rows = entries.map((entry) => {
      const { event, repo } = describeBody(entry.body);
      return [
        entry.webhookId ?? '-',
        entry.receivedAt,
        entry.route === '' ? '/webhooks' : entry.route,
        event,
        repo,
        String(entry.status),
        String(entry.ms),
      ].map(printable);
    });
    this.log(
      rows.length === 0 ? 'No deliveries.' : formatTable(['WEBHOOK ID', 'RECEIVED', 'ROUTE', 'EVENT', 'REPO', 'STATUS', 'MS'], rows),
    );
    return entries;
  }
}
