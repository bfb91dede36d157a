import { fromCallback, type EventObject } from 'xstate';
import type { Bus } from '../bus/bus.js';
import type { MoodLedger } from '../mood-ledger/mood-ledger.js';
import { publishLate } from '../bus/publish-late.js';

export interface EmotionsInput {
  readonly bus: Bus;
  /** The only way the mood changes: whatever ledger the composition root chose. */
  readonly ledger: MoodLedger;
}

/**
 * The mood's voice on the bus: each change the mood ledger delivers, with the state the ledger
 * folded it into (the emotions, the avatar's shape, the last sentiment, the time of the change), is
 * published as one `mood.changed`. Everyone else reads the mood from there; nobody folds it again.
 */
export const emotionsActor = fromCallback<EventObject, EmotionsInput>(({ input: { bus, ledger } }) =>
  ledger.subscribe((change, { emotions, avatarShape, sentiment, lastUpdated }) =>
    // A shared ledger may deliver after the owner closed the bus at shutdown.
    publishLate(bus, { type: 'mood.changed', change, emotions, avatarShape, sentiment, lastUpdated, at: change.at }),
  ),
);
