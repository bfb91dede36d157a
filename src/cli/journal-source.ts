import * as Flags from '@oclif/core/flags';
import type { JournalContents, JournalEntry } from '../webhooks/journal/entry.js';
import { openJournal } from '../webhooks/journal/open-journal.js';
import { CliError, ExitCode } from './exit-codes.js';

export const journalFlag = Flags.string({
  required: true,
  helpValue: 'FILE',
  description: 'The journal a receiver wrote (`listen --journal FILE`, `WebhooksServer({ journal: FILE })`): a file, or a redis:// URL.',
});

/**
 * Every delivery of a journal, newest first, and how many records were not deliveries (corrupt, cut
 * short); a journal that cannot be read is a usage error naming it.
 */
export async function readDeliveries(where: string): Promise<JournalContents> {
  let entries: JournalEntry[];
  let skipped: number;
  try {
    const journal = await openJournal(where);
    try {
      ({ entries, skipped } = await journal.read());
    } finally {
      await journal.close();
    }
  } catch (error) {
    throw new CliError(`Cannot read the journal ${where}: ${(error as Error).message}`, ExitCode.usage);
  }
  // Appended in the order answered: reversed, the newest comes first, ties kept in that order.
  return { entries: entries.reverse().sort((a, b) => b.receivedAt.localeCompare(a.receivedAt)), skipped };
}

/** `scope:action` and the repository of a journaled body, when it is a payload. */
export function describeBody(body: unknown): { event: string; repo: string } {
  const payload = (body ?? {}) as { event?: { scope?: unknown; action?: unknown }; repo?: { type?: unknown; name?: unknown } };
  return {
    event: payload.event?.scope && payload.event.action ? `${String(payload.event.scope)}:${String(payload.event.action)}` : '-',
    repo: payload.repo?.name ? `${String(payload.repo.type ?? '?')} ${String(payload.repo.name)}` : '-',
  };
}

/**
 * A journal's text made safe for a terminal: control characters (escape sequences among them) and
 * the bidirectional overrides that reorder what is shown become `�`. A journal records what the
 * network sent: a field must not be able to move the cursor, retitle the window or hide a column.
 */
export function printable(text: string): string {
  return Array.from(text, (character) => (unprintable(character.codePointAt(0)!) ? '\ufffd' : character)).join('');
}

/** C0 and C1 controls, DEL, and the marks and overrides of bidirectional text. */
export function unprintable(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x200e ||
    code === 0x200f ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

/** The warning for records of a journal that are not deliveries, or undefined when there are none. */
export function skippedWarning(where: string, skipped: number): string | undefined {
  if (skipped === 0) return undefined;
  return `${skipped} record${skipped === 1 ? '' : 's'} of ${where} ${skipped === 1 ? 'is' : 'are'} not a delivery (corrupt or cut short): skipped`;
}
