import { appendFile, readFile } from 'node:fs/promises';
import { type DeliveryJournal, type JournalContents, type JournalEntry, parseJournalLines } from './entry.js';

/** A JSON-lines file, appended one line per delivery (one `write` each, in the order answered). */
export class FileJournal implements DeliveryJournal {
  #last: Promise<void> = Promise.resolve();

  constructor(readonly path: string) {}

  append(entry: JournalEntry): Promise<void> {
    const line = `${JSON.stringify(entry)}\n`;
    // Chained, so that lines never interleave and come in the order the deliveries were answered.
    this.#last = this.#last.catch(() => undefined).then(() => appendFile(this.path, line, { mode: 0o600 }));
    return this.#last;
  }

  async read(): Promise<JournalContents> {
    return parseJournalLines((await readFile(this.path, 'utf8')).split('\n'));
  }

  async close(): Promise<void> {
    await this.#last.catch(() => undefined);
  }
}
