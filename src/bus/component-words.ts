import type { ComponentName } from './events.js';

/** Each part as the terminal names it: the operator's words, not the code's (the JSON line keeps `component`). */
export const COMPONENT_WORDS: Readonly<Record<ComponentName, string>> = {
  memoryStore: 'mood and conversations',
  sentimentAnalyzer: 'message reading',
  primaryProvider: 'chat model',
  secondaryProvider: 'second provider',
  persistence: 'emotions file',
  chat: 'chat',
  dialogue: 'chat model replies',
  avatar: 'avatar',
  drift: 'mood drift',
};
