import type { BusEvent } from '../bus/events.js';
import { foldMoodChange, type EmotionState } from '../emotions/state.js';

/**
 * Folds one event into the state, as the live actors do: `emotions.loaded` starts over,
 * `chat.committed` is one processed message, `emotions.drifted` one drift tick, both as the mood
 * ledger delivered them. Other events (a failed chat's `sentiment.analyzed` among them) change
 * nothing. Pure: the same log always gives the same state. It lives beside the replay, not in the
 * emotion model, so that the model imports nothing from the bus.
 */
export function foldEvent(state: EmotionState, event: BusEvent): EmotionState {
  switch (event.type) {
    case 'emotions.loaded':
      return {
        emotions: event.emotions,
        avatarShape: event.avatarShape,
        sentiment: event.sentiment,
        lastUpdated: event.lastUpdated,
      };
    case 'chat.committed':
      return foldMoodChange(state, { kind: 'chat', correlationId: event.correlationId, sentiment: event.sentiment, at: event.at });
    case 'emotions.drifted':
      return foldMoodChange(state, { kind: 'drift', deltas: event.deltas, at: event.at });
    default:
      return state;
  }
}
