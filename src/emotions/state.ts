import { chooseShape } from './avatar.js';
import type { EmotionState, Emotions, MoodChange, Sentiment } from './emotions.js';
import { DEFAULT_EMOTIONS, applyDrift, processMessage, processSentimentMessage } from './model.js';

export type { EmotionState, MoodChange } from './emotions.js';

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
 * The state after one ledger change: a chat decays the emotions and applies its appraisal (or, made
 * before the appraisal, its sentiment) and records its sentiment, a
 * drift adds its deltas, and the avatar follows; a snapshot is the state it carries. Pure, so
 * every replica folding the same ledger in the same order holds the same state, and a replay of
 * the ledger reproduces it. The one place the mood is computed.
 */
export function foldMoodChange(state: EmotionState, change: MoodChange): EmotionState {
  switch (change.kind) {
    case 'chat': {
      const emotions =
        change.appraisal === undefined
          ? processSentimentMessage(state.emotions, change.sentiment)
          : processMessage(state.emotions, change.appraisal);
      return advanceAvatar({ ...state, sentiment: change.sentiment }, emotions, change.at);
    }
    case 'drift':
      return advanceAvatar(state, applyDrift(state.emotions, change.deltas), change.at);
    case 'snapshot':
      return change.state;
  }
}

/** Where a replay with nothing to start from begins (a log with no `emotions.loaded`, a Redis with no snapshot): the defaults, at the epoch, since a replay has no clock. */
export const REPLAY_START = defaultState(new Date(0).toISOString());
