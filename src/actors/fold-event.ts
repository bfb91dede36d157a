import type { BusEvent } from '../bus/events.js';
import { applyDrift, processMessage } from '../emotions/model.js';
import { advanceAvatar, type EmotionState } from '../emotions/state.js';

/**
 * Folds one event into the state, as the live actors do: `emotions.loaded` starts over,
 * `chat.committed` is one processed message, `emotions.drifted` one drift tick, both as the mood
 * ledger delivered them. Other events (a failed chat's `sentiment.analyzed` among them) change
 * nothing. Pure: the same log always gives the same state.
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
      return advanceAvatar({ ...state, sentiment: event.sentiment }, processMessage(state.emotions, event.sentiment), event.at);
    case 'emotions.drifted':
      return advanceAvatar(state, applyDrift(state.emotions, event.deltas), event.at);
    default:
      return state;
  }
}
