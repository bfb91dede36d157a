import { asyncScheduler, interval, type SchedulerLike } from 'rxjs';
import { fromCallback, type EventObject } from 'xstate';
import { driftDeltas } from '../emotions/model.js';
import type { DriftLease } from '../mood-ledger/drift-lease.js';
import type { MoodLedger } from '../mood-ledger/mood-ledger.js';
import type { Clock } from '../runtime/clock.js';
import type { Random } from '../runtime/random.js';

export interface DriftInput {
  readonly ledger: MoodLedger;
  /** A tick drifts only while this process holds the lease (replicas: one drifts at a time). */
  readonly lease: DriftLease;
  readonly clock: Clock;
  readonly intervalMs: number;
  readonly random: Random;
  /** RxJS scheduler; tests pass a virtual-time one. */
  readonly scheduler?: SchedulerLike;
}

/**
 * The random emotion service: every `intervalMs`, a drift change carrying the deltas it drew,
 * appended to the mood ledger; it takes effect (and shows as `emotions.drifted`) when delivered.
 */
export const driftActor = fromCallback<EventObject, DriftInput>(({ input }) => {
  const subscription = interval(input.intervalMs, input.scheduler ?? asyncScheduler).subscribe(() => {
    if (!input.lease.held()) return;
    const change = { kind: 'drift', deltas: driftDeltas(input.random), at: input.clock.now().toISOString() } as const;
    // A tick the ledger cannot record (closed at shutdown, a shared store away) is skipped; the next one draws again.
    input.ledger.append(change).catch(() => undefined);
  });
  return () => subscription.unsubscribe();
});
