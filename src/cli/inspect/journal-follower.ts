import { open, stat } from 'node:fs/promises';
import type { Redis } from 'ioredis';
import { DEFAULT_REDIS_PREFIX } from '../../config/defaults.js';
import { type JournalEntry, parseJournalLines } from '../../webhooks/journal/entry.js';

/** What a journal gained since the last look: new entries, or all of them after a rewrite (`reset`). */
export interface JournalChange {
  readonly entries: JournalEntry[];
  readonly reset: boolean;
}

/** Reads what a journal gained since it last looked, without reading the rest again. */
export interface JournalFollower {
  next(): Promise<JournalChange>;
  close(): Promise<void>;
}

/**
 * A file journal, read from where the last look ended. A file that got smaller or is another file
 * (the receiver's trim renames a rewritten copy over it) is read again whole. A last line still
 * being written is kept for the next look.
 */
export function followFile(path: string): JournalFollower {
  let inode = -1;
  let offset = 0;
  let partial = '';
  return {
    async next() {
      const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      });
      if (info === undefined) return { entries: [], reset: false };
      const reset = info.ino !== inode || info.size < offset;
      if (reset) {
        inode = info.ino;
        offset = 0;
        partial = '';
      }
      if (info.size === offset) return { entries: [], reset };
      const handle = await open(path, 'r');
      let text: string;
      try {
        const buffer = Buffer.alloc(info.size - offset);
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
        offset += bytesRead;
        text = partial + buffer.subarray(0, bytesRead).toString('utf8');
      } finally {
        await handle.close();
      }
      const lines = text.split('\n');
      partial = lines.pop() ?? '';
      return { entries: parseJournalLines(lines).entries, reset };
    },
    close: async () => {},
  };
}

/** A Redis journal's stream, read from the last entry seen. */
export function followRedis(client: Redis, prefix = DEFAULT_REDIS_PREFIX): JournalFollower {
  const key = `${prefix}webhook-journal`;
  let last = '-';
  return {
    async next() {
      const items = await client.xrange(key, last === '-' ? '-' : `(${last}`, '+');
      if (items.length > 0) last = items.at(-1)![0];
      return { entries: parseJournalLines(items.map(([, fields]) => fields[fields.indexOf('entry') + 1] ?? '')).entries, reset: false };
    },
    close: async () => {
      client.disconnect();
    },
  };
}
