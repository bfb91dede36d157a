/**
 * The defaults of the variables whose users live above the config (the conversations, Redis, the
 * drift lease): here, so that the config reads them without importing up the layers.
 */

/** `MAX_SESSION_BYTES` when unset: the conversations' text, all sessions together. */
export const DEFAULT_MAX_SESSION_BYTES = 64 * 2 ** 20;

/** `REDIS_PREFIX` when unset: every key of the service starts with it. */
export const DEFAULT_REDIS_PREFIX = 'emotion-hub:';

/** `DRIFT_LEASE_MS` when unset: when the drifting replica dies, another drifts within this. */
export const DEFAULT_DRIFT_LEASE_MS = 15_000;
