import type { ChatRejection, SystemPhase } from '../bus/events.js';
import { PHASE_REFUSALS, type RefusingPhase } from '../bus/phase-rejection.js';
import type { ErrorCode } from '../errors/catalogue.js';

/** How the HTTP interface says one phase of the system (docs/specification.md#status-strings). */
interface PhaseRow {
  /** `status` of `GET /api/avatar` and of the chat's 503. */
  readonly status: 'ready' | 'initializing' | 'missing_llm_key' | 'error';
  /** `status` of `GET /api/is_initialized`, which says `missing_api_key` for a missing key. */
  readonly pollStatus: 'ready' | 'initializing' | 'missing_api_key' | 'error';
  /** `status` of `GET /api/availability`, whose not-available case is `initializing` unless the system failed. */
  readonly availabilityStatus: 'ready' | 'initializing' | 'error';
  /** What a chat gets in this phase: nothing when ready, else a 503 of the table and its reason on the bus (bus/phase-rejection.ts). */
  readonly refusal?: { readonly error: ErrorCode; readonly reason: ChatRejection };
}

/**
 * The one table from the system's phase to what the HTTP interface says of it: the status strings of
 * each endpoint, and the error a chat gets. The chat route's state check and the read-only endpoints
 * read it; its refusals are the ones the front desk rejects with on the bus, so each phase has one wording.
 */
export const PHASES = {
  ready: { status: 'ready', pollStatus: 'ready', availabilityStatus: 'ready' },
  initializing: {
    status: 'initializing',
    pollStatus: 'initializing',
    availabilityStatus: 'initializing',
    refusal: PHASE_REFUSALS.initializing,
  },
  keyMissing: {
    status: 'missing_llm_key',
    pollStatus: 'missing_api_key',
    availabilityStatus: 'initializing',
    refusal: PHASE_REFUSALS.keyMissing,
  },
  failed: {
    status: 'error',
    pollStatus: 'error',
    availabilityStatus: 'error',
    refusal: PHASE_REFUSALS.failed,
  },
} as const satisfies Readonly<Record<SystemPhase, PhaseRow>>;

export type PhaseErrorCode = (typeof PHASES)[RefusingPhase]['refusal']['error'];
type PhaseReason = (typeof PHASES)[RefusingPhase]['refusal']['reason'];

/** The error a chat gets in `phase`, or nothing when the system is ready to chat. */
export function phaseError(phase: SystemPhase): PhaseErrorCode | undefined {
  return phase === 'ready' ? undefined : PHASES[phase].refusal.error;
}

/** The reasons that are not a phase: the provider, the ledger or the store refused. */
const OTHER_REJECTIONS: Readonly<Record<Exclude<ChatRejection, PhaseReason>, ErrorCode>> = {
  provider_failed: 'PROVIDER_FAILED',
  provider_timeout: 'PROVIDER_TIMEOUT',
  unavailable: 'CHAT_UNAVAILABLE',
  stopped: 'CHAT_STOPPED',
  nothing_to_redo: 'NOTHING_TO_REDO',
};

const PHASE_REJECTIONS = new Map<ChatRejection, ErrorCode>(
  Object.values(PHASES).flatMap((row: PhaseRow) => (row.refusal ? [[row.refusal.reason, row.refusal.error] as const] : [])),
);

/** A chat rejection's error: its reason on the bus, read back through the same table. */
export function rejectionError(reason: ChatRejection): ErrorCode {
  return PHASE_REJECTIONS.get(reason) ?? OTHER_REJECTIONS[reason as Exclude<ChatRejection, PhaseReason>];
}
