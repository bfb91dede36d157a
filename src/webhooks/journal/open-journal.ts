import { isRedisUrl } from '../../config/redis-url.js';
import type { Logger } from '../../runtime/logger.js';
import type { DeliveryJournal } from './entry.js';
import { FileJournal } from './file-journal.js';

/**
 * The journal a `journal` option or `--journal` names: a `redis://` (or `rediss://`) URL is a capped
 * stream on that Redis, anything else a file, capped at `maxEntries` (default 10,000) too. Redis's
 * client loads only for a Redis journal.
 */
export async function openJournal(where: string, logger?: Logger, maxEntries?: number): Promise<DeliveryJournal> {
  if (!isRedisUrl(where)) return new FileJournal(where, maxEntries);
  const { RedisJournal } = await import('./redis-journal.js');
  return RedisJournal.connect(where, logger ?? (await import('pino')).default({ enabled: false }), maxEntries);
}
