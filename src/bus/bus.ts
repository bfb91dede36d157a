import { randomUUID } from 'node:crypto';
import type { Observable } from 'rxjs';
// The one class the bus needs, from its own module: the `rxjs` entry loads all of RxJS (about 0.1 s),
// and `hub serve` must answer before the actors, which use the rest, are loaded. Same class either way.
import { Subject } from 'rxjs/internal/Subject';
import { systemClock, type Clock } from '../runtime/clock.js';
import { BusClosedError, BusTimeoutError } from './errors.js';
import type { BusEvent, EventInput, EventOf, EventType } from './events.js';

/** The events that open a request/reply exchange. */
export type RequestInput = Extract<EventInput, { readonly correlationId: string }> extends infer E
  ? E extends { readonly correlationId: string }
    ? Omit<E, 'correlationId'> & { readonly correlationId?: string }
    : never
  : never;

interface PendingRequest {
  readonly requestType: EventType;
  readonly types: readonly EventType[];
  readonly resolve: (event: BusEvent) => void;
  readonly reject: (error: Error) => void;
}

export interface BusOptions {
  readonly clock?: Clock;
}

/**
 * The one channel the actors and the HTTP layer share. Delivery is synchronous
 * and trampolined: an event published while another is being delivered waits
 * until every subscriber has seen the first, so all subscribers (and the event
 * log) see one global order, the order in which the events took effect.
 */
export class Bus {
  private readonly clock: Clock;
  private readonly everything = new Subject<BusEvent>();
  private readonly byType = new Map<EventType, Subject<BusEvent>>();
  private readonly queue: BusEvent[] = [];
  private readonly pending = new Map<string, PendingRequest>();
  private readonly watched = new Set<EventType>();
  private delivering = false;
  private closed = false;

  constructor(options: BusOptions = {}) {
    this.clock = options.clock ?? systemClock;
  }

  /** Stamps the event with the clock when it has no `at`, then delivers it. */
  publish(input: EventInput): BusEvent {
    if (this.closed) throw new BusClosedError(input.type);
    const event = (input.at === undefined ? { ...input, at: this.clock.now().toISOString() } : input) as BusEvent;
    if (this.delivering) {
      this.queue.push(event);
      return event;
    }
    this.delivering = true;
    try {
      this.deliver(event);
      let next: BusEvent | undefined;
      while ((next = this.queue.shift()) !== undefined) this.deliver(next);
    } finally {
      this.delivering = false;
    }
    return event;
  }

  /** Every event of one type, typed. */
  on<T extends EventType>(type: T): Observable<EventOf<T>> {
    let subject = this.byType.get(type);
    if (!subject) {
      subject = new Subject<BusEvent>();
      this.byType.set(type, subject);
    }
    return subject.asObservable() as Observable<EventOf<T>>;
  }

  /** Every event, in delivery order. */
  all(): Observable<BusEvent> {
    return this.everything.asObservable();
  }

  /**
   * Publishes a request and resolves with the first reply of one of
   * `replyTypes` that carries the same correlation id, or rejects with a
   * BusTimeoutError. Replies are matched through one long-lived subscription
   * per reply type and a table of pending requests, rather than a fresh
   * Observable chain per request: this is the HTTP layer's hot path. The
   * entry is registered before publishing, since replies may come
   * synchronously, and removed on reply or on timeout.
   */
  request<R extends EventType>(
    input: RequestInput,
    replyTypes: R | readonly R[],
    timeoutMs: number,
  ): Promise<EventOf<R>> {
    if (this.closed) return Promise.reject(new BusClosedError(input.type));
    const correlationId = input.correlationId ?? randomUUID();
    const types: readonly EventType[] = Array.isArray(replyTypes) ? replyTypes : [replyTypes as R];
    for (const type of types) this.watchReplies(type);
    const reply = new Promise<EventOf<R>>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(correlationId);
        reject(new BusTimeoutError(input.type, types, timeoutMs, correlationId));
      }, timeoutMs);
      this.pending.set(correlationId, {
        requestType: input.type,
        types,
        resolve: (event) => {
          clearTimeout(timer);
          resolve(event as EventOf<R>);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
    });
    this.publish({ ...input, correlationId } as EventInput);
    return reply;
  }

  /** Requests still waiting for their reply. */
  get pendingRequests(): number {
    return this.pending.size;
  }

  /** Completes every stream; later publishes throw. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const [correlationId, request] of this.pending) {
      this.pending.delete(correlationId);
      request.reject(new BusClosedError(request.requestType, `no reply to ${request.requestType} (${correlationId}) will come`));
    }
    this.everything.complete();
    for (const subject of this.byType.values()) subject.complete();
  }

  private watchReplies(type: EventType): void {
    if (this.watched.has(type)) return;
    this.watched.add(type);
    this.on(type).subscribe((event) => {
      const correlationId = (event as { correlationId?: string }).correlationId;
      const request = correlationId === undefined ? undefined : this.pending.get(correlationId);
      if (request === undefined || !request.types.includes(type)) return;
      this.pending.delete(correlationId!);
      request.resolve(event);
    });
  }

  private deliver(event: BusEvent): void {
    this.everything.next(event);
    this.byType.get(event.type)?.next(event);
  }
}
