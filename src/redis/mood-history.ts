import type { Redis } from 'ioredis';
import { foldMoodChange, REPLAY_START } from '../emotions/state.js';
import type { RedisKeys } from './keys.js';
import { decodeMoodEntry, STREAM_START, type MoodEntry, type StreamPosition } from './mood-entry.js';
import { loadMoodSnapshot, type MoodSnapshot } from './mood-snapshot.js';

/** Entries read per XRANGE while catching up. */
const PAGE = 1000;

/**
 * The next entry is not the one after the last applied: entries this replica never applied were
 * trimmed (it was cut off for longer than the stream keeps them). Its state can no longer follow
 * the stream; a restart loads the snapshot.
 */
export class MoodStreamGapError extends Error {
  override readonly name = 'MoodStreamGapError';
}

/** Checks that `entry` is the one that follows `position`; any other entry is a gap (MoodStreamGapError). */
export function expectNext(position: StreamPosition, entry: MoodEntry): void {
  const expected = position.seq + 1;
  if (entry.position.seq !== expected) {
    throw new MoodStreamGapError(
      `the mood stream went from entry ${position.seq} to entry ${entry.position.seq} (${entry.position.id}): ` +
        'the entries between were trimmed before this replica applied them',
    );
  }
}

/** Folds the entry that follows `snapshot` into it; any other entry is a gap (MoodStreamGapError). */
export function advance(snapshot: MoodSnapshot, entry: MoodEntry): MoodSnapshot {
  expectNext(snapshot.position, entry);
  return { state: foldMoodChange(snapshot.state, entry.change), position: entry.position };
}

/** `from`, with every stream entry after its position applied in stream order. */
export async function catchUp(client: Redis, keys: RedisKeys, from: MoodSnapshot): Promise<MoodSnapshot> {
  let current = from;
  for (;;) {
    const page = (await client.xrange(keys.moodStream, `(${current.position.id}`, '+', 'COUNT', PAGE)) as [string, string[]][];
    for (const raw of page) current = advance(current, decodeMoodEntry(raw));
    if (page.length < PAGE) return current;
  }
}

/** What `hub replay --redis` prints: the saved snapshot (or the defaults) with the stream after it replayed. */
export async function replayMoodStream(client: Redis, keys: RedisKeys): Promise<MoodSnapshot> {
  const snapshot = (await loadMoodSnapshot(client, keys)) ?? { state: REPLAY_START, position: STREAM_START };
  return catchUp(client, keys, snapshot);
}
