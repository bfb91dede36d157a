import type { ChatRejection, SystemPhase } from '../bus/events.js';

/** Why a chat is refused in each phase but `ready`, as the HTTP layer reports it. */
export const PHASE_REJECTIONS: Record<Exclude<SystemPhase, 'ready'>, { reason: ChatRejection; error: string }> = {
  initializing: { reason: 'initializing', error: 'The system is not initialized yet; try again in a moment.' },
  keyMissing: {
    reason: 'missing_llm_key',
    error: 'The language model API key (LLM_API_KEY) is missing, so chat is unavailable.',
  },
  failed: { reason: 'unavailable', error: 'The system failed and is shutting down.' },
};
