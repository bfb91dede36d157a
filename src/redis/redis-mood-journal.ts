import type { Redis } from 'ioredis';
import type { Emotions } from '../emotions/emotions.js';
import { MOOD_JOURNAL_LENGTH, type JournalEntry, type MoodExplanation } from '../emotions/mood-journal.js';
import type { RedisKeys } from './keys.js';

/** A journal entry as stored: its change's stream number, the entry, and the emotions after it. */
interface StoredEntry extends JournalEntry {
  readonly seq: number;
  readonly after: Emotions;
}

// The first replica to fold an entry records it; the others find its number taken. Every replica
// folds the same entries in the same order, so whichever writes, the journal is the same.
const RECORD = `
local seq = tonumber(ARGV[1])
if redis.call('ZCOUNT', KEYS[1], seq, seq) == 0 then redis.call('ZADD', KEYS[1], seq, ARGV[2]) end
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -(tonumber(ARGV[3]) + 1))
return 1`;

/** Records the entry of the stream's change number `seq`, keeping the latest MOOD_JOURNAL_LENGTH. */
export async function recordJournalEntry(client: Redis, keys: RedisKeys, seq: number, entry: JournalEntry, after: Emotions): Promise<void> {
  const stored: StoredEntry = { seq, ...entry, after };
  await client.eval(RECORD, 1, keys.moodJournal, seq, JSON.stringify(stored), MOOD_JOURNAL_LENGTH);
}

/** The shared journal as `GET /api/mood/why` answers it; `current` when nothing is recorded yet. */
export async function loadMoodExplanation(client: Redis, keys: RedisKeys, current: Emotions): Promise<MoodExplanation> {
  const entries: StoredEntry[] = [];
  for (const member of await client.zrange(keys.moodJournal, '0', '-1')) {
    try {
      entries.push(JSON.parse(member) as StoredEntry);
    } catch {
      // Not ours (another writer's): left out rather than failing every answer.
    }
  }
  const last = entries.at(-1);
  if (last === undefined) return { from: current, changes: [], emotions: current };
  return { from: entries[0]!.before, changes: entries.map(({ step }) => step), emotions: last.after };
}
