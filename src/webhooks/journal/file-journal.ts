import { randomBytes } from 'node:crypto';
import { appendFile, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { type DeliveryJournal, type JournalContents, type JournalEntry, parseJournalLines } from './entry.js';

/** Deliveries a file journal keeps by default: as many as a Redis journal (`DEFAULT_JOURNAL_MAX_LENGTH`). */
export const DEFAULT_FILE_JOURNAL_MAX = 10_000;

/**
 * A JSON-lines file, appended one line per delivery (one `write` each, in the order answered), capped
 * at `maxEntries`, oldest first: once it holds a tenth more, it is rewritten with the newest
 * `maxEntries` (to a temporary file, then renamed over it), so a long-running receiver's journal
 * does not grow without bound and a rewrite costs little per delivery.
 */
export class FileJournal implements DeliveryJournal {
  #last: Promise<void> = Promise.resolve();
  /** Lines in the file, counted at the first append. */
  #lines: number | undefined;

  constructor(
    readonly path: string,
    readonly maxEntries = DEFAULT_FILE_JOURNAL_MAX,
  ) {}

  append(entry: JournalEntry): Promise<void> {
    const line = `${JSON.stringify(entry)}\n`;
    // Chained, so that lines never interleave and come in the order the deliveries were answered.
    this.#last = this.#last.catch(() => undefined).then(() => this.#append(line));
    return this.#last;
  }

  async #append(line: string): Promise<void> {
    this.#lines ??= await readFile(this.path, 'utf8').then(
      (text) => text.split('\n').length - 1,
      () => 0,
    );
    await appendFile(this.path, line, { mode: 0o600 });
    this.#lines += 1;
    if (this.#lines > this.maxEntries + Math.ceil(this.maxEntries / 10)) await this.#trim();
  }

  /** Keeps the newest `maxEntries` lines. */
  async #trim(): Promise<void> {
    const lines = (await readFile(this.path, 'utf8')).split('\n').filter((line) => line !== '');
    const kept = lines.slice(-this.maxEntries);
    const temp = join(dirname(this.path), `.${basename(this.path)}.tmp-${randomBytes(6).toString('hex')}`);
    try {
      await writeFile(temp, `${kept.join('\n')}\n`, { mode: 0o600 });
      await rename(temp, this.path);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw error;
    }
    this.#lines = kept.length;
  }

  async read(): Promise<JournalContents> {
    return parseJournalLines((await readFile(this.path, 'utf8')).split('\n'));
  }

  async close(): Promise<void> {
    await this.#last.catch(() => undefined);
  }
}
