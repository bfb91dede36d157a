import { Subject, Subscription, asyncScheduler, auditTime, type SchedulerLike } from 'rxjs';
import { fromCallback, type EventObject } from 'xstate';
import type { Bus } from '../bus/bus.js';
import type { PersistenceFailed, PersistenceSaved } from '../bus/events.js';
import type { EmotionState } from '../emotions/state.js';
import { writeEmotionsFile } from '../persistence/emotions-file.js';
import type { Logger } from '../runtime/logger.js';
import { publishLate } from '../bus/publish-late.js';

/** Changes within this window become one write: at most 10 writes a second however busy the service is. */
export const DEFAULT_WRITE_WINDOW_MS = 100;

/** How long a flush may take (at shutdown, before a fatal exit): a write that hangs must not keep the process alive. */
export const FLUSH_TIMEOUT_MS = 5000;

/** Asks the persistence actor to write the state now; resolves with its answer, or rejects after {@link FLUSH_TIMEOUT_MS}. */
export function requestFlush(bus: Bus): Promise<PersistenceSaved | PersistenceFailed> {
  return bus.request({ type: 'persistence.flush.requested' }, ['persistence.saved', 'persistence.failed'], FLUSH_TIMEOUT_MS);
}

export interface PersistenceInput {
  readonly bus: Bus;
  readonly file: string;
  readonly initial: EmotionState;
  readonly logger: Logger;
  readonly windowMs?: number;
  readonly scheduler?: SchedulerLike;
}

/**
 * Keeps the emotions file in step with the state on the bus. Writes are atomic, one at a time,
 * and coalesced: a burst of changes is one write of the latest state. `persistence.flush.requested`
 * writes at once and answers with `persistence.saved` or `persistence.failed` (same correlation id).
 */
export const persistenceActor = fromCallback<EventObject, PersistenceInput>(({ input }) => {
  const { bus, file, logger } = input;
  let state = input.initial;
  let writes: Promise<void> = Promise.resolve();
  const changes = new Subject<void>();

  function save(correlationId?: string): void {
    const snapshot = state;
    const id = correlationId === undefined ? {} : { correlationId };
    writes = writes
      .then(() => writeEmotionsFile(file, snapshot))
      .then(
        () => publishLate(bus, { type: 'persistence.saved', file, ...id }),
        (error: unknown) => {
          const reason = (error as Error).message;
          logger.error({ file, reason }, `cannot write the emotions file ${file}: ${reason}`);
          publishLate(bus, { type: 'persistence.failed', file, reason, ...id });
        },
      );
  }

  const subscription = new Subscription();
  subscription.add(
    bus.on('mood.changed').subscribe(({ emotions, avatarShape, sentiment, lastUpdated }) => {
      state = { emotions, avatarShape, sentiment, lastUpdated };
      changes.next();
    }),
  );
  subscription.add(
    changes.pipe(auditTime(input.windowMs ?? DEFAULT_WRITE_WINDOW_MS, input.scheduler ?? asyncScheduler)).subscribe(() => save()),
  );
  subscription.add(bus.on('persistence.flush.requested').subscribe(({ correlationId }) => save(correlationId)));
  return () => subscription.unsubscribe();
});
