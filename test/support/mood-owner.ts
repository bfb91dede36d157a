import type { Test } from 'tap';
import { createActor } from 'xstate';
import { emotionsActor } from '../../src/actors/emotions-actor.js';
import type { Bus } from '../../src/bus/bus.js';
import type { EmotionState, MoodChange } from '../../src/emotions/state.js';
import type { MoodLedger } from '../../src/mood-ledger/mood-ledger.js';

/**
 * The mood's real owner (the emotions actor) on `bus`, following `ledger` from `initial`, as the
 * chat system runs it: each delivered change becomes one `mood.changed`. Returns the changes it
 * folded, in order; stopped at the end of the test.
 */
export function runMoodOwner(t: Test, bus: Bus, ledger: MoodLedger, initial: EmotionState): MoodChange[] {
  const seen: MoodChange[] = [];
  const subscription = bus.on('mood.changed').subscribe(({ change }) => seen.push(change));
  const owner = createActor(emotionsActor, { input: { bus, initial, ledger } }).start();
  t.teardown(() => {
    owner.stop();
    subscription.unsubscribe();
  });
  return seen;
}
