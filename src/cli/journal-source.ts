import * as Flags from '@oclif/core/flags';
import type { JournalEntry } from '../webhooks/journal/entry.js';
import { openJournal } from '../webhooks/journal/open-journal.js';
import { CliError, ExitCode } from './exit-codes.js';

export const journalFlag = Flags.string({
  required: true,
  helpValue: 'FILE',
  description: 'The journal a receiver wrote (`listen --journal FILE`, `WebhooksServer({ journal: FILE })`): a file, or a redis:// URL.',
});

/** Every delivery of a journal, newest first; a journal that cannot be read is a usage error naming it. */
export async function readDeliveries(where: string): Promise<JournalEntry[]> {
  let entries: JournalEntry[];
  try {
    const journal = await openJournal(where);
    try {
      entries = await journal.read();
    } finally {
      await journal.close();
    }
  } catch (error) {
    throw new CliError(`Cannot read the journal ${where}: ${(error as Error).message}`, ExitCode.usage);
  }
  // Appended in the order answered: reversed, the newest comes first, ties kept in that order.
  return entries.reverse().sort((a, b) => b.receivedAt.localeCompare(a.receivedAt));
}

/** `scope:action` and the repository of a journaled body, when it is a payload. */
export function describeBody(body: unknown): { event: string; repo: string } {
  const payload = (body ?? {}) as { event?: { scope?: unknown; action?: unknown }; repo?: { type?: unknown; name?: unknown } };
  return {
    event: payload.event?.scope && payload.event.action ? `${String(payload.event.scope)}:${String(payload.event.action)}` : '-',
    repo: payload.repo?.name ? `${String(payload.repo.type ?? '?')} ${String(payload.repo.name)}` : '-',
  };
}
