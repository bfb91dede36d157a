/**
 * Pure mappings from the system's bus replies to the response bodies of docs/specification.md#chat.
 * The phase names of the system machine become status strings through one table (PHASES).
 */
import type { ChatReplied, StatusReported, SystemPhase } from '../bus/events.js';
import type { Sentiment } from '../emotions/emotions.js';
import { round2, roundAppraisal, roundEmotions } from '../emotions/model.js';
import { ERRORS } from '../errors/catalogue.js';
import { PHASES, phaseError } from './phase-errors.js';

/** The sentiment's scores, to 2 decimals like every number in a response. */
export function roundSentiment({ sentiment, positive, negative }: Sentiment): Sentiment {
  return { sentiment, positive: round2(positive), negative: round2(negative) };
}

/** The `status` string for a phase, as the avatar endpoint and the chat's 503 say it. */
export function statusOf(phase: SystemPhase): (typeof PHASES)[SystemPhase]['status'] {
  return PHASES[phase].status;
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

/** `GET /api/is_initialized`: the page's startup poll; the key-missing case says `missing_api_key` (PHASES). */
export function isInitializedBody(phase: SystemPhase) {
  if (phase === 'failed') return unreachableSystemBody(ERRORS.SYSTEM_FAILED.message);
  const flags = { is_initialized: phase === 'ready', initializing: phase === 'initializing', missing_llm_key: phase === 'keyMissing' };
  const status = PHASES[phase].pollStatus;
  const code = phaseError(phase);
  if (code === undefined) return { ...flags, status };
  return { ...flags, ...(phase === 'keyMissing' && { error_page: ERROR_PAGE }), status, message: ERRORS[code].message };
}

/** `GET /api/is_initialized` when the system failed or does not answer: still 200, pointing at the error page. */
export function unreachableSystemBody(error: string) {
  return {
    is_initialized: false,
    initializing: false,
    missing_llm_key: false,
    error_page: ERROR_PAGE,
    status: PHASES.failed.pollStatus,
    error,
  };
}

/**
 * `GET /api/availability`; `available` false goes out with 503. The not-available case says
 * `initializing` (docs/specification.md#chat), a missing key too, with `missing_llm_key` and a message
 * naming the variable; only a failed system says `error` (PHASES).
 */
export function availabilityBody(phase: SystemPhase) {
  const status = PHASES[phase].availabilityStatus;
  const code = phaseError(phase);
  if (code === undefined) return { available: true, is_initialized: true, status };
  const message = ERRORS[code].message;
  if (phase === 'failed') return { available: false, is_initialized: false, status, message, error: message };
  return { available: false, is_initialized: false, status, message, error: message, missing_llm_key: phase === 'keyMissing' };
}

/** `POST /api/chat` success: exactly the seed's fields. */
export function chatBody(reply: ChatReplied) {
  return {
    response: reply.response,
    avatar_shape: reply.avatarShape,
    emotions: roundEmotions(reply.emotions),
    is_initialized: true,
  };
}

/** A streamed chat's `done` frame: the seed's body, and how the message read (for the visitor who wrote it; not for a regenerate). */
export function doneFrameBody(reply: ChatReplied) {
  return reply.appraisal === undefined ? chatBody(reply) : { ...chatBody(reply), appraisal: roundAppraisal(reply.appraisal) };
}
