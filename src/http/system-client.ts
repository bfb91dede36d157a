import type { Bus } from '../bus/bus.js';
import type { ChatRejected, ChatReplied, SessionKey, StatusReported } from '../bus/events.js';

export interface SystemTimeouts {
  /** How long a `status.requested` may wait for its report; the system answers it at once in every phase. */
  readonly statusMs: number;
  /** How long a chat may wait for its reply; longer than one provider call. */
  readonly chatMs: number;
}

/**
 * What the routes ask the actor system, over the bus and nothing else: the
 * HTTP layer never sees an actor, a provider or a file.
 */
export class SystemClient {
  readonly #bus: Bus;
  readonly #timeouts: SystemTimeouts;

  constructor(bus: Bus, timeouts: SystemTimeouts) {
    this.#bus = bus;
    this.#timeouts = timeouts;
  }

  status(): Promise<StatusReported> {
    return this.#bus.request({ type: 'status.requested' }, 'status.reported', this.#timeouts.statusMs);
  }

  chat(message: string, session: SessionKey): Promise<ChatReplied | ChatRejected> {
    return this.#bus.request({ type: 'chat.requested', message, session }, ['chat.replied', 'chat.rejected'], this.#timeouts.chatMs);
  }
}
