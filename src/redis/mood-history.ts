import type { Redis } from 'ioredis';
import { foldMoodChange, REPLAY_START } from '../emotions/state.js';
import type { RedisKeys } from './keys.js';
import { decodeMoodEntry, STREAM_START, type MoodEntry, type StreamPosition } from './mood-entry.js';
import { loadMoodSnapshot, type MoodSnapshot } from './mood-snapshot.js';

/** Entries read per XRANGE while catching up. */
const PAGE = 1000;

/**
 * What reading the stream came across, said as what it is: an entry refused, entries lost, the
 * numbering started over. Replicas log these; `hub replay --redis` prints them as warnings.
 */
export type StreamNotice = (level: 'warn' | 'error', message: string) => void;

/** How an entry stands to the position before it. */
export type StreamStep = 'next' | 'behind' | 'ahead';

export function stepOf(position: StreamPosition, entry: MoodEntry): StreamStep {
  if (entry.position.seq === position.seq + 1) return 'next';
  return entry.position.seq <= position.seq ? 'behind' : 'ahead';
}

/** The log lines of the stream's troubles, in one place so that each cause has one wording. */
export const streamMessages = {
  refused: (entry: MoodEntry & { refused: string }): string =>
    `mood stream entry ${entry.position.seq} (${entry.position.id}) refused: ${entry.refused}; it is not applied (every replica refuses it alike)`,
  lost: (from: number, to: number): string =>
    `mood stream entries ${from + 1} to ${to - 1} are lost: Redis no longer holds them and no snapshot covers them (the stream key was deleted or emptied); going on from entry ${to}`,
  trimmed: (from: number, to: number, snapshot: number): string =>
    `mood stream entries ${from + 1} to ${to - 1} were trimmed before this replica applied them (it was cut off for longer than the stream keeps them); taking the shared snapshot at entry ${snapshot}`,
  restarted: (at: number, entry: MoodEntry): string =>
    `mood stream entry ${entry.position.seq} (${entry.position.id}) comes after entry ${at}: its numbering started over, so Redis lost its data; the entry is skipped`,
  dataLost: (why: string, at: number): string =>
    `Redis lost the shared mood (${why}: it restarted without persistence, or was flushed); this replica writes back the last state it holds (entry ${at}) and the replicas agree on the newest one written back`,
};

/**
 * `from`, with every stream entry after its position applied in stream order. An entry no
 * replica may apply is refused (told, skipped); missing entries are told as lost and the
 * reading goes on after them; an entry numbered before the position is skipped. Nothing here
 * throws for the stream's content: a restart and a replay always get through.
 */
export async function catchUp(client: Redis, keys: RedisKeys, from: MoodSnapshot, notice: StreamNotice): Promise<MoodSnapshot> {
  let current = from;
  for (;;) {
    const page = (await client.xrange(keys.moodStream, `(${current.position.id}`, '+', 'COUNT', PAGE)) as [string, string[]][];
    for (const raw of page) {
      const entry = decodeMoodEntry(raw, current.position);
      const step = stepOf(current.position, entry);
      if (step === 'behind') {
        notice('warn', streamMessages.restarted(current.position.seq, entry));
        current = { ...current, position: { id: entry.position.id, seq: current.position.seq } };
        continue;
      }
      if (step === 'ahead') notice('error', streamMessages.lost(current.position.seq, entry.position.seq));
      if ('refused' in entry) {
        notice('warn', streamMessages.refused(entry));
        current = { ...current, position: entry.position };
      } else {
        current = { state: foldMoodChange(current.state, entry.change), position: entry.position };
      }
    }
    if (page.length < PAGE) return current;
  }
}

/** What `hub replay --redis` prints: the saved snapshot (or the defaults) with the stream after it replayed. */
export async function replayMoodStream(client: Redis, keys: RedisKeys, notice: StreamNotice = () => undefined): Promise<MoodSnapshot> {
  const snapshot = (await loadMoodSnapshot(client, keys)) ?? { state: REPLAY_START, position: STREAM_START };
  return catchUp(client, keys, snapshot, notice);
}
