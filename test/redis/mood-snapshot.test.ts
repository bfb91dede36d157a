import t from 'tap';
import { defaultState, type EmotionState } from '../../src/emotions/state.js';
import { redisKeys } from '../../src/redis/keys.js';
import { loadMoodSnapshot, saveMoodSnapshot } from '../../src/redis/mood-snapshot.js';
import { redisClient, startRedisServer } from '../support/redis-server.js';

const at = (joy: number, lastUpdated: string): EmotionState => ({
  ...defaultState(lastUpdated),
  emotions: { ...defaultState(lastUpdated).emotions, joy },
});

t.test('a saved Redis snapshot is never replaced by an older one', async (t) => {
  // Replicas save concurrently and a slow one can save late. Its snapshot, further back in the
  // stream, must not win: the stream may be trimmed behind the newer one already, so a replica
  // starting from the older snapshot would find the entries after it missing.
  const server = await startRedisServer(t);
  const client = await redisClient(t, server.url);
  const keys = redisKeys('snapshot:');
  const newer = { state: at(0.8, '2026-11-23T09:00:05.000Z'), position: { id: '1790000005000-0', seq: 5 } };
  const older = { state: at(0.2, '2026-11-23T09:00:03.000Z'), position: { id: '1790000003000-0', seq: 3 } };
  const same = { state: at(0.5, '2026-11-23T09:00:05.000Z'), position: { id: '1790000005000-0', seq: 5 } };

  t.equal(await saveMoodSnapshot(client, keys, newer, 0), true, 'the first snapshot is saved');
  t.equal(await saveMoodSnapshot(client, keys, older, 0), false, 'an older one is refused');
  t.equal(await saveMoodSnapshot(client, keys, same, 0), false, 'one at the same position is refused too');
  t.same(await loadMoodSnapshot(client, keys), newer, 'the newer snapshot stays, state and position');
  const further = { state: at(0.9, '2026-11-23T09:00:06.000Z'), position: { id: '1790000006000-0', seq: 6 } };
  t.equal(await saveMoodSnapshot(client, keys, further, 0), true, 'one further along replaces it');
  t.same(await loadMoodSnapshot(client, keys), further);
});
