/**
 * Who drifts. Replicas share one mood, so exactly one of them may drift at a time: the one that
 * holds the lease. The drift asks before each tick and skips it when it does not hold it.
 */
export interface DriftLease {
  /** Whether this process may drift now. */
  held(): boolean;
  /** Gives the lease up (another replica takes over at once) and stops renewing it. */
  close(): Promise<void>;
}

/** The single process drifts alone: its lease is always held. */
export const ALWAYS_HELD: DriftLease = {
  held: () => true,
  close: async () => undefined,
};
