/**
 * Remembers which deliveries were handled, by the Hub's `Webhook-Id`, so that replicas of a
 * receiver behind one URL handle a repeated delivery once between them.
 */
export interface DeliveryDedup {
  /** True the first time `webhookId` is claimed; false for a repeat. Rejects when it cannot tell. */
  claim(webhookId: string): Promise<boolean>;
  /** Forgets a claim whose handling failed, so the Hub's retry of it is handled. */
  release(webhookId: string): Promise<void>;
  close(): Promise<void>;
}
