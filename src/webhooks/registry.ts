import { WebhookRegistrationError } from './errors.js';
import type { WebhookHandler } from './handler.js';
import { routeName, routePath } from './route-name.js';

/** The handlers of one server by route name, in registration order. */
export class WebhookRegistry {
  readonly #handlers = new Map<string, WebhookHandler>();

  /** Registers `handler` and returns its route name; a taken name is an error. */
  add(explicitName: string | undefined, handler: WebhookHandler): string {
    if (typeof handler !== 'function') {
      throw new WebhookRegistrationError(`A webhook handler must be a function, got ${handler === null ? 'null' : typeof handler}.`);
    }
    const name = routeName(explicitName, handler);
    if (this.#handlers.has(name)) {
      throw new WebhookRegistrationError(`Webhook ${routePath(name)} already exists: give each handler its own name.`);
    }
    this.#handlers.set(name, handler);
    return name;
  }

  get(name: string): WebhookHandler | undefined {
    return this.#handlers.get(name);
  }

  get names(): string[] {
    return [...this.#handlers.keys()];
  }

  get size(): number {
    return this.#handlers.size;
  }
}
