import mittImport, { type Emitter, type Handler, type WildcardHandler } from 'mitt';
import type { Logger } from '../runtime/logger.js';
import type { WebhookContext } from './context.js';
import type { WebhookEventName } from './event-name.js';
import type { WebhookPayload } from './payload.js';

// mitt's types are read as CommonJS under NodeNext while Node loads its ESM build.
const mitt = mittImport as unknown as typeof mittImport.default;

/** What an `on(...)` listener receives. */
export interface WebhookDelivery {
  readonly payload: WebhookPayload;
  readonly context: WebhookContext;
}

export type WebhookEvents = Record<WebhookEventName, WebhookDelivery>;
export type WebhookListener = (delivery: WebhookDelivery) => unknown;
export type WebhookWildcardListener = (name: WebhookEventName, delivery: WebhookDelivery) => unknown;
type AnyListener = WebhookListener | WebhookWildcardListener;

/**
 * Typed delivery events over mitt. Listeners are notifications: one that
 * throws or rejects is logged and never changes the delivery's response, nor
 * keeps the other listeners from running.
 */
export class DeliveryEvents {
  readonly #emitter: Emitter<WebhookEvents> = mitt<WebhookEvents>();
  // Per event name, each listener and the guarded function mitt actually holds, so `off` can find it.
  readonly #wrapped = new Map<string, Map<AnyListener, Handler<WebhookDelivery> & WildcardHandler<WebhookEvents>>>();

  get listenerCount(): number {
    let count = 0;
    for (const listeners of this.#wrapped.values()) count += listeners.size;
    return count;
  }

  on(name: '*', listener: WebhookWildcardListener): void;
  on(name: WebhookEventName, listener: WebhookListener): void;
  on(name: WebhookEventName | '*', listener: AnyListener): void {
    const listeners = this.#wrapped.get(name) ?? new Map();
    if (listeners.has(listener)) return;
    const wrapped = (first: unknown, second?: unknown): void => {
      const delivery = (name === '*' ? second : first) as WebhookDelivery;
      const log = delivery.context.log;
      try {
        const result = (listener as (...args: unknown[]) => unknown)(first, second);
        if (result instanceof Promise) result.catch((error: unknown) => logFailure(log, error));
      } catch (error) {
        logFailure(log, error);
      }
    };
    this.#wrapped.set(name, listeners.set(listener, wrapped));
    if (name === '*') this.#emitter.on('*', wrapped);
    else this.#emitter.on(name, wrapped);
  }

  off(name: WebhookEventName | '*', listener: AnyListener): void {
    const wrapped = this.#wrapped.get(name)?.get(listener);
    if (wrapped === undefined) return;
    this.#wrapped.get(name)?.delete(listener);
    if (name === '*') this.#emitter.off('*', wrapped);
    else this.#emitter.off(name, wrapped);
  }

  emit(delivery: WebhookDelivery): void {
    if (this.#wrapped.size > 0) this.#emitter.emit(delivery.context.event, delivery);
  }
}

function logFailure(log: Logger, error: unknown): void {
  log.error({ err: error }, 'a webhook event listener failed');
}
