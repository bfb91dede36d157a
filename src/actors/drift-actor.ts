import { asyncScheduler, interval, type SchedulerLike } from 'rxjs';
import { fromCallback, type EventObject } from 'xstate';
import type { Bus } from '../bus/bus.js';
import { driftDeltas } from '../emotions/model.js';
import type { Random } from '../runtime/random.js';
import { publishLate } from './publish.js';

export interface DriftInput {
  readonly bus: Bus;
  readonly intervalMs: number;
  readonly random: Random;
  /** RxJS scheduler; tests pass a virtual-time one. */
  readonly scheduler?: SchedulerLike;
}

/** The random emotion service: every `intervalMs`, an `emotions.drifted` carrying the deltas it drew. */
export const driftActor = fromCallback<EventObject, DriftInput>(({ input }) => {
  const subscription = interval(input.intervalMs, input.scheduler ?? asyncScheduler).subscribe(() => {
    // A tick may fire after the owner closed the bus at shutdown, before stop() ended the drift.
    publishLate(input.bus, { type: 'emotions.drifted', deltas: driftDeltas(input.random) });
  });
  return () => subscription.unsubscribe();
});
