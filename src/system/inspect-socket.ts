import type { StatelyInspectionEvent } from '@statelyai/inspect';
import { WebSocket } from 'ws';

/** Events kept while the inspector is unreachable; older ones are dropped. */
const MAX_QUEUED = 200;
const RECONNECT_MS = 5000;

/** JSON that cuts repeated references (actor refs point back at their system and parent). */
function toJson(event: StatelyInspectionEvent): string {
  const seen = new WeakSet<object>();
  return JSON.stringify(event, (_key, value: unknown) => {
    if (typeof value === 'function') return undefined;
    if (typeof value !== 'object' || value === null) return value;
    if (seen.has(value)) return '[seen]';
    seen.add(value);
    return value;
  });
}

/**
 * Streams inspection events to a Stately inspector over a WebSocket. Unlike the adapter shipped
 * with @statelyai/inspect 0.7.2, which keeps reconnecting after stop() when the inspector is
 * unreachable, this one stops for good, and its timer and socket never keep the process alive.
 */
export class InspectorSocket {
  #socket: WebSocket | undefined;
  #retry: NodeJS.Timeout | undefined;
  #stopped = true;
  readonly #queue: string[] = [];

  constructor(readonly url: string) {}

  start(): void {
    this.#stopped = false;
    this.#connect();
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#retry);
    this.#socket?.terminate();
  }

  send(event: StatelyInspectionEvent): void {
    const text = toJson(event);
    if (this.#socket?.readyState === WebSocket.OPEN) this.#socket.send(text);
    else if (this.#queue.push(text) > MAX_QUEUED) this.#queue.shift();
  }

  #connect(): void {
    const socket = new WebSocket(this.url);
    this.#socket = socket;
    socket.on('open', () => {
      for (const text of this.#queue.splice(0)) socket.send(text);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (!this.#stopped) this.#retry = setTimeout(() => this.#connect(), RECONNECT_MS).unref();
    });
  }
}
