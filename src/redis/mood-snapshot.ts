import type { Redis } from 'ioredis';
import type { EmotionState } from '../emotions/state.js';
import { parseEmotionsFile, toEmotionsFile } from '../persistence/emotions-file.js';
import type { RedisKeys } from './keys.js';
import { STREAM_START, type StreamPosition } from './mood-entry.js';

/** The state after every stream entry up to `position`, and that position. */
export interface MoodSnapshot {
  readonly state: EmotionState;
  readonly position: StreamPosition;
}

/**
 * Stream entries kept behind the newest snapshot. A replica a little behind the one that saved
 * still finds the entries it has not applied yet; only one cut off for longer must restart.
 */
export const DEFAULT_STREAM_RETENTION_MS = 10 * 60_000;

// Replicas save concurrently: only a snapshot further along the stream replaces the saved one, and
// the stream is trimmed in the same step, so no entry a snapshot does not cover is ever trimmed.
// The numbering never falls behind a snapshot: after Redis lost its data, the snapshot a replica
// writes back also restores the counter, so the next entry follows the state written back.
const SAVE_SNAPSHOT = `
local seq = tonumber(ARGV[1])
if tonumber(redis.call('GET', KEYS[3]) or '0') < seq then redis.call('SET', KEYS[3], ARGV[1]) end
local saved = tonumber(redis.call('HGET', KEYS[1], 'seq') or '-1')
if saved >= seq then return 0 end
redis.call('HSET', KEYS[1], 'seq', ARGV[1], 'id', ARGV[2], 'state', ARGV[3])
if ARGV[4] ~= '' and redis.call('TYPE', KEYS[2]).ok == 'stream' then redis.call('XTRIM', KEYS[2], 'MINID', ARGV[4]) end
return 1`;

/** Below this stream id, entries are `retentionMs` older than `position` (empty: trim nothing). */
function trimBelow(position: StreamPosition, retentionMs: number): string {
  if (retentionMs === 0) return position.id === STREAM_START.id ? '' : position.id;
  const ms = Number(position.id.split('-')[0]) - retentionMs;
  return ms > 0 ? `${ms}-0` : '';
}

/**
 * Saves `snapshot` unless a snapshot at or beyond its position is there already, then trims the
 * stream to `retentionMs` behind it. Resolves whether this one was saved.
 */
export async function saveMoodSnapshot(
  client: Redis,
  keys: RedisKeys,
  snapshot: MoodSnapshot,
  retentionMs = DEFAULT_STREAM_RETENTION_MS,
): Promise<boolean> {
  const { position } = snapshot;
  const state = JSON.stringify(toEmotionsFile(snapshot.state));
  const trim = trimBelow(position, retentionMs);
  return (
    (await client.eval(SAVE_SNAPSHOT, 3, keys.moodSnapshot, keys.moodStream, keys.moodSequence, position.seq, position.id, state, trim)) ===
    1
  );
}

/** Saves `seed` as the snapshot before the first entry, unless a snapshot exists. */
export function seedMoodSnapshot(client: Redis, keys: RedisKeys, seed: EmotionState): Promise<boolean> {
  return saveMoodSnapshot(client, keys, { state: seed, position: STREAM_START });
}

/** The saved snapshot; undefined when there is none. A damaged one throws, naming the key. */
export async function loadMoodSnapshot(client: Redis, keys: RedisKeys): Promise<MoodSnapshot | undefined> {
  const saved = await client.hgetall(keys.moodSnapshot);
  if (saved.state === undefined) return undefined;
  const seq = Number(saved.seq);
  if (typeof saved.id !== 'string' || !/^\d+-\d+$/.test(saved.id) || !Number.isSafeInteger(seq) || seq < 0) {
    throw new Error(`Redis key ${keys.moodSnapshot}: the stream position is damaged`);
  }
  return { state: parseEmotionsFile(`Redis key ${keys.moodSnapshot}`, saved.state), position: { id: saved.id, seq } };
}
