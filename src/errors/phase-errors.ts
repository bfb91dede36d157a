import type { ChatRejection, SystemPhase } from '../bus/events.js';
import { ERRORS, type ErrorCode } from './catalogue.js';

/**
 * The one rule that turns the system's phase into an error: what a chat gets in every phase but
 * `ready`. The chat route's state check (503 before anything else), the front desk's rejection on
 * the bus, and the read-only endpoints' messages all ask it, so each phase has one wording.
 */
export function phaseError(phase: SystemPhase): PhaseErrorCode | undefined {
  switch (phase) {
    case 'ready':
      return undefined;
    case 'initializing':
      return 'NOT_INITIALIZED';
    case 'keyMissing':
      return 'MISSING_LLM_KEY';
    case 'failed':
      return 'SYSTEM_FAILED';
  }
}

export type PhaseErrorCode = 'NOT_INITIALIZED' | 'MISSING_LLM_KEY' | 'SYSTEM_FAILED';

/** A chat rejection's error: its reason on the bus, read back as a code of the table. */
export const REJECTION_ERRORS: Readonly<Record<ChatRejection, ErrorCode>> = {
  initializing: 'NOT_INITIALIZED',
  missing_llm_key: 'MISSING_LLM_KEY',
  system_failed: 'SYSTEM_FAILED',
  provider_failed: 'PROVIDER_FAILED',
  provider_timeout: 'PROVIDER_TIMEOUT',
  unavailable: 'CHAT_UNAVAILABLE',
  stopped: 'CHAT_STOPPED',
};

const PHASE_REASONS: Readonly<Record<Exclude<SystemPhase, 'ready'>, ChatRejection>> = {
  initializing: 'initializing',
  keyMissing: 'missing_llm_key',
  failed: 'system_failed',
};

/** The `chat.rejected` fields for a chat asked outside `ready`: the phase's reason and its error's words. */
export function phaseRejection(phase: Exclude<SystemPhase, 'ready'>): { reason: ChatRejection; error: string } {
  return { reason: PHASE_REASONS[phase], error: ERRORS[phaseError(phase)!].message };
}
