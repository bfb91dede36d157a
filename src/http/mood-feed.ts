import type { Bus } from '../bus/bus.js';
import type { StatusReported } from '../bus/events.js';
import { httpError } from './errors.js';
import type { SystemClient } from './system-client.js';
import type { EmotionState } from '../emotions/state.js';

/**
 * Calls `listener` with the state after each change of the mood (a committed chat, a drift tick, the state loaded),
 * whichever replica made it: on a replica the shared ledger delivers every replica's changes to the
 * local emotions actor, so the local bus carries them all as `mood.changed`. Returns the unsubscribe.
 */
export function subscribeToMood(bus: Bus, listener: (state: EmotionState) => void): () => void {
  const subscription = bus
    .on('mood.changed')
    .subscribe(({ emotions, avatarShape, sentiment, lastUpdated }) => listener({ emotions, avatarShape, sentiment, lastUpdated }));
  return () => subscription.unsubscribe();
}

/** The mood as it is, for an event stream's first frame: a system that cannot say is the avatar's 500, before the stream opens. */
export async function moodNow(system: SystemClient): Promise<StatusReported> {
  try {
    return await system.status();
  } catch (cause) {
    throw httpError('AVATAR_FAILED', { cause });
  }
}
