import type { Logger } from '../runtime/logger.js';
import type { WebhookContext } from './context.js';
import type { WebhookEventName } from './event-name.js';
import type { WebhookPayload } from './payload.js';

/** What an `on(...)` listener receives. */
export interface WebhookDelivery {
  readonly payload: WebhookPayload;
  readonly context: WebhookContext;
}

export type WebhookEvents = Record<WebhookEventName, WebhookDelivery>;
export type WebhookListener = (delivery: WebhookDelivery) => unknown;
export type WebhookWildcardListener = (name: WebhookEventName, delivery: WebhookDelivery) => unknown;

/**
 * Typed delivery events: a map of listeners per event name, and the `*` ones that hear every event
 * (as octokit/webhooks.js keeps its own). Listeners are notifications: one that throws or rejects is
 * logged and never changes the delivery's response, nor keeps the other listeners from running.
 */
export class DeliveryEvents {
  readonly #named = new Map<WebhookEventName, Set<WebhookListener>>();
  readonly #wildcard = new Set<WebhookWildcardListener>();

  get listenerCount(): number {
    let count = this.#wildcard.size;
    for (const listeners of this.#named.values()) count += listeners.size;
    return count;
  }

  on(name: '*', listener: WebhookWildcardListener): void;
  on(name: WebhookEventName, listener: WebhookListener): void;
  on(name: WebhookEventName | '*', listener: WebhookListener | WebhookWildcardListener): void {
    if (name === '*') this.#wildcard.add(listener as WebhookWildcardListener);
    else this.#named.set(name, (this.#named.get(name) ?? new Set()).add(listener as WebhookListener));
  }

  off(name: WebhookEventName | '*', listener: WebhookListener | WebhookWildcardListener): void {
    if (name === '*') this.#wildcard.delete(listener as WebhookWildcardListener);
    else if (this.#named.get(name)?.delete(listener as WebhookListener) && this.#named.get(name)?.size === 0) this.#named.delete(name);
  }

  /** Calls the event's listeners, then the `*` ones, each as it was when the delivery came. */
  emit(delivery: WebhookDelivery): void {
    const name = delivery.context.event;
    const log = delivery.context.log;
    for (const listener of [...(this.#named.get(name) ?? [])]) notify(log, () => listener(delivery));
    for (const listener of [...this.#wildcard]) notify(log, () => listener(name, delivery));
  }
}

function notify(log: Logger, call: () => unknown): void {
  try {
    const result = call();
    if (result instanceof Promise) result.catch((error: unknown) => logFailure(log, error));
  } catch (error) {
    logFailure(log, error);
  }
}

function logFailure(log: Logger, error: unknown): void {
  log.error({ err: error }, 'a webhook event listener failed');
}
