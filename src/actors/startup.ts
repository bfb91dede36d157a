import { fromPromise } from 'xstate';
import type { ProviderConfig } from '../config/chat-config.js';
import { analyzeSentiment } from '../emotions/sentiment.js';
import { defaultState, type EmotionState } from '../emotions/state.js';
import { loadEmotionsFile, removeStaleTempFiles } from '../persistence/emotions-file.js';
import { validateProviderKey } from '../providers/validate-key.js';
import { ConversationMemory } from './memory-store.js';

export interface MemoryStore {
  /** The persisted state, or the defaults when there was no file. */
  readonly state: EmotionState;
  readonly source: 'file' | 'defaults';
  readonly memory: ConversationMemory;
}

/**
 * Stage 1: the memory store clears what a killed run left half-written, loads the emotions file
 * (a corrupt one fails startup) and opens the conversation memory.
 */
export const loadMemoryStore = fromPromise<MemoryStore, { file: string; now: string }>(async ({ input }) => {
  await removeStaleTempFiles(input.file);
  const persisted = await loadEmotionsFile(input.file);
  return {
    state: persisted ?? defaultState(input.now),
    source: persisted ? 'file' : 'defaults',
    memory: new ConversationMemory(),
  };
});

/** Stage 1: the sentiment analyzer loads its lexicon and must score a known phrase correctly. */
export const probeSentimentAnalyzer = fromPromise<string>(async () => {
  const probe = analyzeSentiment('I love this, it is wonderful');
  if (probe.sentiment.sentiment !== 'positive') throw new Error('the AFINN lexicon did not load: a known positive phrase scored as not positive');
  return 'AFINN-165 lexicon loaded';
});

/** Stage 1: one provider key, validated by listing the provider's models. */
export const validateKey = fromPromise<string, { provider: ProviderConfig; timeoutMs: number; fetch?: typeof fetch }>(
  ({ input, signal }) => validateProviderKey(input.provider, input.timeoutMs, signal, input.fetch),
);
