/**
 * Pure mappings from the system's bus replies to seed 000's response bodies.
 * The phase names of the system machine become the seed's status strings here
 * and nowhere else.
 */
import type { ChatReplied, StatusReported, SystemPhase } from '../bus/events.js';
import type { Sentiment } from '../emotions/emotions.js';
import { round2, roundEmotions } from '../emotions/model.js';
import { ERRORS } from '../errors/catalogue.js';
import { phaseError } from '../errors/phase-errors.js';

/** The sentiment's scores, to 2 decimals like every number in a response. */
export function roundSentiment({ sentiment, positive, negative }: Sentiment): Sentiment {
  return { sentiment, positive: round2(positive), negative: round2(negative) };
}

/** The seed's `status` string for a phase, as the avatar, availability and chat endpoints say it. */
export function statusOf(phase: SystemPhase): 'ready' | 'initializing' | 'missing_llm_key' | 'error' {
  switch (phase) {
    case 'ready':
      return 'ready';
    case 'initializing':
      return 'initializing';
    case 'keyMissing':
      return 'missing_llm_key';
    case 'failed':
      return 'error';
  }
}

export const ERROR_PAGE = '/error';

/** `GET /api/avatar`: answered in every phase, so the page can keep polling it. */
export function avatarBody(status: Pick<StatusReported, 'phase' | 'emotions' | 'sentiment' | 'avatarShape' | 'lastUpdated'>) {
  return {
    avatar_shape: status.avatarShape,
    emotions: roundEmotions(status.emotions),
    sentiment: roundSentiment(status.sentiment),
    is_initialized: status.phase === 'ready',
    last_updated: status.lastUpdated,
    status: statusOf(status.phase),
  };
}

/** `GET /status`. */
export function statusBody(status: StatusReported) {
  return {
    is_initialized: status.phase === 'ready',
    initializing: status.phase === 'initializing',
    emotions: roundEmotions(status.emotions),
    avatar_shape: status.avatarShape,
    missing_llm_key: status.phase === 'keyMissing',
  };
}

/** `GET /api/is_initialized`: the page's startup poll; the key-missing case says `missing_api_key`, as the seed does. */
export function isInitializedBody(phase: SystemPhase) {
  switch (phase) {
    case 'ready':
      return { is_initialized: true, initializing: false, missing_llm_key: false, status: 'ready' };
    case 'initializing':
      return {
        is_initialized: false,
        initializing: true,
        missing_llm_key: false,
        status: 'initializing',
        message: ERRORS.NOT_INITIALIZED.message,
      };
    case 'keyMissing':
      return {
        is_initialized: false,
        initializing: false,
        missing_llm_key: true,
        error_page: ERROR_PAGE,
        status: 'missing_api_key',
        message: ERRORS.MISSING_LLM_KEY.message,
      };
    case 'failed':
      return unreachableSystemBody(ERRORS.SYSTEM_FAILED.message);
  }
}

/** `GET /api/is_initialized` when the system failed or does not answer: still 200, pointing at the error page. */
export function unreachableSystemBody(error: string) {
  return {
    is_initialized: false,
    initializing: false,
    missing_llm_key: false,
    error_page: ERROR_PAGE,
    status: 'error',
    error,
  };
}

/**
 * `GET /api/availability`; `available` false goes out with 503. Seed 000 gives the not-available
 * case one status, `initializing`, so a missing key says so too, and adds `missing_llm_key` and a
 * message naming the variable; only a failed system says `error`.
 */
export function availabilityBody(phase: SystemPhase) {
  const code = phaseError(phase);
  if (code === undefined) return { available: true, is_initialized: true, status: 'ready' };
  const message = ERRORS[code].message;
  if (phase === 'failed') return { available: false, is_initialized: false, status: statusOf(phase), message, error: message };
  return {
    available: false,
    is_initialized: false,
    status: 'initializing',
    message,
    error: message,
    missing_llm_key: phase === 'keyMissing',
  };
}

/** `POST /api/chat` success. */
export function chatBody(reply: ChatReplied) {
  return {
    response: reply.response,
    avatar_shape: reply.avatarShape,
    emotions: roundEmotions(reply.emotions),
    is_initialized: true,
  };
}
