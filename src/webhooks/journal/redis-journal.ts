import type { Redis } from 'ioredis';
import { connectRedis, DEFAULT_COMMAND_TIMEOUT_MS } from '../../redis/connection.js';
import { DEFAULT_REDIS_PREFIX } from '../../config/defaults.js';
import type { Logger } from '../../runtime/logger.js';
import { type DeliveryJournal, type JournalContents, type JournalEntry, parseJournalLines } from './entry.js';

/** Deliveries kept in the stream: about the last ten thousand (`MAXLEN ~`, trimmed as Redis sees fit). */
export const DEFAULT_JOURNAL_MAX_LENGTH = 10_000;

/** The journal as a capped Redis stream, `<prefix>webhook-journal`, one `entry` field of JSON per delivery. */
export class RedisJournal implements DeliveryJournal {
  readonly #key: string;

  constructor(
    readonly client: Redis,
    readonly maxLength = DEFAULT_JOURNAL_MAX_LENGTH,
    prefix = DEFAULT_REDIS_PREFIX,
  ) {
    this.#key = `${prefix}webhook-journal`;
  }

  static async connect(url: string, logger: Logger, maxLength?: number): Promise<RedisJournal> {
    return new RedisJournal(
      await connectRedis(url, { name: 'webhook-journal', logger, commandTimeoutMs: DEFAULT_COMMAND_TIMEOUT_MS }),
      maxLength,
    );
  }

  async append(entry: JournalEntry): Promise<void> {
    await this.client.xadd(this.#key, 'MAXLEN', '~', this.maxLength, '*', 'entry', JSON.stringify(entry));
  }

  async read(): Promise<JournalContents> {
    const items = await this.client.xrange(this.#key, '-', '+');
    return parseJournalLines(items.map(([, fields]) => fields[fields.indexOf('entry') + 1] ?? ''));
  }

  async close(): Promise<void> {
    this.client.disconnect();
  }
}
