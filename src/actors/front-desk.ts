import { Subscription } from 'rxjs';
import { fromCallback, type EventObject } from 'xstate';
import type { Bus } from '../bus/bus.js';
import type { SystemPhase } from '../bus/events.js';
import type { EmotionState } from '../emotions/state.js';
import { phaseRejection } from '../bus/phase-rejection.js';

export interface FrontDeskInput {
  readonly bus: Bus;
  /** What status reports until the memory store has loaded the file. */
  readonly initial: EmotionState;
}

/**
 * The system's face to the HTTP layer, alive from the moment the system exists, in every phase.
 * It answers `status.requested` at once from the state it follows on the bus (no I/O), and admits
 * `chat.requested` as `chat.accepted` only when ready, rejecting it with the phase's reason otherwise.
 */
export const frontDesk = fromCallback<EventObject, FrontDeskInput>(({ input: { bus, initial } }) => {
  let phase: SystemPhase = 'initializing';
  let state = initial;
  const subscription = new Subscription();
  subscription.add(bus.on('system.phase.changed').subscribe((event) => (phase = event.phase)));
  // The state loaded at startup, then the state after each change as the mood's owner folded it.
  const follow = ({ emotions, avatarShape, sentiment, lastUpdated }: EmotionState): void => {
    state = { emotions, avatarShape, sentiment, lastUpdated };
  };
  subscription.add(bus.on('emotions.loaded').subscribe(follow));
  subscription.add(bus.on('mood.changed').subscribe(follow));
  subscription.add(
    bus.on('status.requested').subscribe(({ correlationId }) => {
      // Spelled out rather than spread: every poll and every chat goes through here.
      bus.publish({
        type: 'status.reported',
        correlationId,
        phase,
        emotions: state.emotions,
        avatarShape: state.avatarShape,
        sentiment: state.sentiment,
        lastUpdated: state.lastUpdated,
      });
    }),
  );
  subscription.add(
    bus.on('chat.requested').subscribe(({ correlationId, message, session, stream, turn, redo }) => {
      if (phase === 'ready') bus.publish({ type: 'chat.accepted', correlationId, message, session, stream, turn, redo });
      else bus.publish({ type: 'chat.rejected', correlationId, ...phaseRejection(phase) });
    }),
  );
  return () => subscription.unsubscribe();
});
