import { appendFile, readFile } from 'node:fs/promises';
import type { Redis } from 'ioredis';
import { isRedisUrl } from '../../config/redis-url.js';
import { DEFAULT_REDIS_PREFIX } from '../../config/defaults.js';
import type { ReplayRecord } from '../recovery/replay-record.js';

/**
 * Where re-sent deliveries are recorded, beside the journal they came from: `hub webhooks redeliver
 * --failed` reads it to send nothing twice, the inspector and `deliveries` to show each verdict.
 * The receiver's journal itself is never written by another process.
 */
export interface ReplayLog {
  append(record: ReplayRecord): Promise<void>;
  /** Every record, oldest first; a line that is not a record (cut short) is skipped. */
  read(): Promise<ReplayRecord[]>;
  close(): Promise<void>;
}

/** Replays kept: as many as the journal's deliveries. */
const REPLAYS_MAX = 10_000;

/** `<journal>.replays.jsonl` beside a file journal; the stream `<prefix>webhook-replays` beside a Redis one. */
export async function openReplayLog(journal: string): Promise<ReplayLog> {
  if (!isRedisUrl(journal)) return fileReplayLog(`${journal}.replays.jsonl`);
  const [{ connectRedis, DEFAULT_COMMAND_TIMEOUT_MS }, pino] = await Promise.all([import('../../redis/connection.js'), import('pino')]);
  const client = await connectRedis(journal, {
    name: 'webhook-replays',
    logger: pino.default({ enabled: false }),
    commandTimeoutMs: DEFAULT_COMMAND_TIMEOUT_MS,
  });
  return redisReplayLog(client);
}

export function fileReplayLog(path: string): ReplayLog {
  return {
    append: (record) => appendFile(path, `${JSON.stringify(record)}\n`, { mode: 0o600 }),
    async read() {
      const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return '';
        throw error;
      });
      return parseRecords(text.split('\n'));
    },
    close: async () => {},
  };
}

export function redisReplayLog(client: Redis, prefix = DEFAULT_REDIS_PREFIX): ReplayLog {
  const key = `${prefix}webhook-replays`;
  return {
    append: async (record) => {
      await client.xadd(key, 'MAXLEN', '~', REPLAYS_MAX, '*', 'replay', JSON.stringify(record));
    },
    async read() {
      const items = await client.xrange(key, '-', '+');
      return parseRecords(items.map(([, fields]) => fields[fields.indexOf('replay') + 1] ?? ''));
    },
    close: async () => {
      client.disconnect();
    },
  };
}

function parseRecords(lines: readonly string[]): ReplayRecord[] {
  const records: ReplayRecord[] = [];
  for (const line of lines) {
    if (line.trim() === '') continue;
    try {
      const value = JSON.parse(line) as ReplayRecord;
      if (typeof value?.at === 'string' && typeof value.receivedAt === 'string' && typeof value.verdict === 'string') records.push(value);
    } catch {
      // A line cut short by a process killed mid-write: not a record.
    }
  }
  return records;
}
