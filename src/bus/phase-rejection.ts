import { ERRORS, type ErrorCode } from '../errors/catalogue.js';
import type { ChatRejection, SystemPhase } from './events.js';

/** The phases in which a chat is refused. */
export type RefusingPhase = Exclude<SystemPhase, 'ready'>;

/**
 * What a chat asked outside `ready` gets, by phase: its reason on the bus and its error. Here, with
 * the events, because the actors that refuse a chat sit below the HTTP layer that words the phases
 * (http/phase-errors.ts reads its refusals from this table).
 */
export const PHASE_REFUSALS = {
  initializing: { error: 'NOT_INITIALIZED', reason: 'initializing' },
  keyMissing: { error: 'MISSING_LLM_KEY', reason: 'missing_llm_key' },
  failed: { error: 'SYSTEM_FAILED', reason: 'system_failed' },
} as const satisfies Readonly<Record<RefusingPhase, { readonly error: ErrorCode; readonly reason: ChatRejection }>>;

/** The `chat.rejected` fields for a chat asked outside `ready`: the phase's reason and its error's words. */
export function phaseRejection(phase: RefusingPhase): { reason: ChatRejection; error: string } {
  const { reason, error } = PHASE_REFUSALS[phase];
  return { reason, error: ERRORS[error].message };
}
