import { chooseShape } from './avatar.js';
import type { AvatarShape, Emotions, Sentiment } from './emotions.js';
import type { MoodChange } from '../mood/mood-ledger.js';
import { DEFAULT_EMOTIONS, applyDrift, processMessage } from './model.js';

/** Everything the service remembers across restarts: numbers and labels, never user text. */
export interface EmotionState {
  readonly emotions: Emotions;
  readonly avatarShape: AvatarShape;
  /** The last analysed message's sentiment. */
  readonly sentiment: Sentiment;
  /** ISO 8601 time the state last changed. */
  readonly lastUpdated: string;
}

export const NEUTRAL_SENTIMENT: Sentiment = { sentiment: 'neutral', positive: 0, negative: 0 };

export function defaultState(now: string): EmotionState {
  return {
    emotions: DEFAULT_EMOTIONS,
    avatarShape: chooseShape(DEFAULT_EMOTIONS, 'Circle'),
    sentiment: NEUTRAL_SENTIMENT,
    lastUpdated: now,
  };
}

/** The avatar after the emotions became `emotions` at `at`. */
export function advanceAvatar(state: EmotionState, emotions: Emotions, at: string): EmotionState {
  return { ...state, emotions, avatarShape: chooseShape(emotions, state.avatarShape), lastUpdated: at };
}

/**
 * The state after one ledger change: a chat decays the emotions and applies its sentiment, a
 * drift adds its deltas; the avatar follows. Pure, so every replica folding the same ledger in
 * the same order holds the same state, and a replay of the ledger reproduces it.
 */
export function foldMoodChange(state: EmotionState, change: MoodChange): EmotionState {
  if (change.kind === 'chat') {
    return advanceAvatar({ ...state, sentiment: change.sentiment }, processMessage(state.emotions, change.sentiment), change.at);
  }
  return advanceAvatar(state, applyDrift(state.emotions, change.deltas), change.at);
}
