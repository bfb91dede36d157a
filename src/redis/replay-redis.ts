import pino from 'pino';
import { connectRedis } from './connection.js';
import { redisKeys } from './keys.js';
import { replayMoodStream } from './mood-history.js';
import type { MoodSnapshot } from './mood-snapshot.js';

/**
 * `hub replay --redis URL`: the state the shared mood's snapshot and the stream after it replay
 * to, read once, without joining the service (no lease, no snapshot written). What the stream
 * holds that no replica applies (an entry refused, entries lost) is told to `onWarning`.
 */
export async function replayRedis(
  url: string,
  prefix: string,
  onWarning: (message: string) => void = () => undefined,
): Promise<MoodSnapshot> {
  const client = await connectRedis(url, { name: 'replay', logger: pino({ enabled: false }) });
  try {
    return await replayMoodStream(client, redisKeys(prefix), (_, message) => onWarning(message));
  } finally {
    client.disconnect();
  }
}
