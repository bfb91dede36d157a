import type { Test } from 'tap';
import type { MoodChange } from '../../src/emotions/state.js';
import type { MoodLedger } from '../../src/mood-ledger/mood-ledger.js';

/** The changes `ledger` delivers from now on, in order, as the system's mood owner hears them; unsubscribed at the end of the test. */
export function deliveredChanges(t: Test, ledger: MoodLedger): MoodChange[] {
  const seen: MoodChange[] = [];
  t.teardown(ledger.subscribe((change) => seen.push(change)));
  return seen;
}
