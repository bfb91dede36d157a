import type { LoggedEvent } from '../bus/event-log-reader.js';
import { foldMoodChange, type EmotionState } from '../emotions/state.js';

/**
 * Folds one logged event into the state: `emotions.loaded` starts over, `mood.changed` carries the
 * state after its change (the mood actor folded it once; a replay takes it as it is). Logs written
 * before `mood.changed` carry the change only, as `chat.committed` (one processed message) or
 * `emotions.drifted` (one drift tick): those are folded with the same pure fold the mood actor
 * uses. Every other event (a failed chat's `sentiment.analyzed` among them) changes nothing. Pure:
 * the same log always gives the same state. It lives beside the replay, not in the emotion model,
 * so that the model imports nothing from the bus.
 */
export function foldEvent(state: EmotionState, event: LoggedEvent): EmotionState {
  switch (event.type) {
    case 'emotions.loaded':
    case 'mood.changed':
      return { emotions: event.emotions, avatarShape: event.avatarShape, sentiment: event.sentiment, lastUpdated: event.lastUpdated };
    case 'chat.committed':
      return foldMoodChange(state, { kind: 'chat', correlationId: event.correlationId, sentiment: event.sentiment, at: event.at });
    case 'emotions.drifted':
      return foldMoodChange(state, { kind: 'drift', deltas: event.deltas, at: event.at });
    default:
      return state;
  }
}
