import { randomBytes } from 'node:crypto';
import type { Observable } from 'rxjs';
// The one class the bus needs, from its own module: the `rxjs` entry loads all of RxJS (about 0.1 s),
// and `hub serve` must answer before the actors, which use the rest, are loaded. Same class either way.
import { Subject } from 'rxjs/internal/Subject';
import { isoStamps, systemClock, type Clock } from '../runtime/clock.js';
import { BusClosedError, BusTimeoutError } from './errors.js';
import type { BusEvent, EventInput, EventOf, EventType } from './events.js';

/** The events that open a request/reply exchange. */
export type RequestInput =
  Extract<EventInput, { readonly correlationId: string }> extends infer E
    ? E extends { readonly correlationId: string }
      ? Omit<E, 'correlationId'> & { readonly correlationId?: string }
      : never
    : never;

/** An event under construction: publish() and request() complete the object they are given. */
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

interface PendingRequest {
  readonly requestType: EventType;
  readonly types: readonly EventType[];
  readonly timeoutMs: number;
  readonly timer: NodeJS.Timeout;
  readonly resolve: (event: BusEvent) => void;
  readonly reject: (error: Error) => void;
}

/** A request being published: a reply that comes during its publish lands here, with no pending entry. */
interface InlineRequest {
  readonly correlationId: string;
  readonly types: readonly EventType[];
  reply: BusEvent | undefined;
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
  readonly #everything = new Subject<BusEvent>();
  readonly #byType = new Map<EventType, Subject<BusEvent>>();
  readonly #queue: BusEvent[] = [];
  readonly #pending = new Map<string, PendingRequest>();
  readonly #watched = new Set<EventType>();
  /** Correlation ids: this bus's random prefix and a counter, unique across processes and cheap per request. */
  readonly #idPrefix = `${randomBytes(6).toString('base64url')}-`;
  #sequence = 0;
  /** The clock's time as ISO 8601, for events published without an `at`. */
  readonly #stamp: () => string;
  /** The request whose publish is under way, if any; a nested request saves and restores it. */
  #answering: InlineRequest | undefined;
  #delivering = false;
  #closed = false;

  constructor(options: BusOptions = {}) {
    this.#stamp = isoStamps(options.clock ?? systemClock);
  }

  /**
   * Stamps the event with the clock when it has no `at`, then delivers it. The object given becomes
   * the event, stamped in place: every caller passes a fresh literal, and copying it instead (an
   * object spread over a dozen event shapes takes V8's slow path) showed in every chat's cost.
   */
  publish(input: EventInput): BusEvent {
    if (this.#closed) throw new BusClosedError(input.type);
    const event = input as Mutable<BusEvent>;
    if (event.at === undefined) event.at = this.#stamp();
    if (this.#delivering) {
      this.#queue.push(event);
      return event;
    }
    this.#delivering = true;
    try {
      this.#deliver(event);
      let next: BusEvent | undefined;
      while ((next = this.#queue.shift()) !== undefined) this.#deliver(next);
    } finally {
      this.#delivering = false;
    }
    return event;
  }

  /** Every event of one type, typed. */
  on<T extends EventType>(type: T): Observable<EventOf<T>> {
    let subject = this.#byType.get(type);
    if (!subject) {
      subject = new Subject<BusEvent>();
      this.#byType.set(type, subject);
    }
    return subject.asObservable() as Observable<EventOf<T>>;
  }

  /** Every event, in delivery order. */
  all(): Observable<BusEvent> {
    return this.#everything.asObservable();
  }

  /**
   * Publishes a request and resolves with the first reply of one of
   * `replyTypes` that carries the same correlation id, or rejects with a
   * BusTimeoutError. Replies are matched through one long-lived subscription
   * per reply type, and correlation ids are a counter. A reply that comes
   * during the request's own publish (every status request: the `/api/avatar`
   * poll, whose bench row has a target) is taken from a slot: no table entry,
   * no timer, no promise executor. That relies on delivery being synchronous
   * (test/bus/bus.test.ts states it). Otherwise the entry and its timer are
   * registered after publishing, and removed on reply or on timeout.
   */
  request<R extends EventType>(input: RequestInput, replyTypes: R | readonly R[], timeoutMs: number): Promise<EventOf<R>> {
    if (this.#closed) return Promise.reject(new BusClosedError(input.type));
    const correlationId = input.correlationId ?? this.newCorrelationId();
    const types: readonly EventType[] = Array.isArray(replyTypes) ? replyTypes : [replyTypes as R];
    for (const type of types) this.#watchReplies(type);
    const outer = this.#answering;
    const answering: InlineRequest = { correlationId, types, reply: undefined };
    this.#answering = answering;
    try {
      // The request object becomes the event, as in publish().
      (input as Mutable<RequestInput>).correlationId = correlationId;
      this.publish(input as EventInput);
    } finally {
      this.#answering = outer;
    }
    if (answering.reply !== undefined) return Promise.resolve(answering.reply as EventOf<R>);
    // Not answered during its own publish (or published while another event was being delivered, so
    // queued): nothing can have answered it since, so the entry and its deadline are registered now.
    return new Promise<EventOf<R>>((resolve, reject) => {
      const timer = setTimeout(() => this.#expire(correlationId), timeoutMs);
      this.#pending.set(correlationId, {
        requestType: input.type,
        types,
        timeoutMs,
        timer,
        resolve: resolve as (event: BusEvent) => void,
        reject,
      });
    });
  }

  /** A correlation id no other request of any process has: for a caller that must know it before requesting. */
  newCorrelationId(): string {
    return `${this.#idPrefix}${((this.#sequence += 1)).toString(36)}`;
  }

  /** Requests still waiting for their reply. */
  get pendingRequests(): number {
    return this.#pending.size;
  }

  /** Completes every stream; later publishes throw. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const [correlationId, request] of this.#pending) {
      clearTimeout(request.timer);
      this.#pending.delete(correlationId);
      request.reject(new BusClosedError(request.requestType, `no reply to ${request.requestType} (${correlationId}) will come`));
    }
    this.#everything.complete();
    for (const subject of this.#byType.values()) subject.complete();
  }

  #expire(correlationId: string): void {
    const request = this.#pending.get(correlationId)!;
    this.#pending.delete(correlationId);
    request.reject(new BusTimeoutError(request.requestType, request.types, request.timeoutMs, correlationId));
  }

  #watchReplies(type: EventType): void {
    if (this.#watched.has(type)) return;
    this.#watched.add(type);
    this.on(type).subscribe((event) => {
      const correlationId = (event as { correlationId?: string }).correlationId;
      const answering = this.#answering;
      if (
        answering !== undefined &&
        answering.correlationId === correlationId &&
        answering.reply === undefined &&
        answering.types.includes(type)
      ) {
        answering.reply = event;
        return;
      }
      const request = correlationId === undefined ? undefined : this.#pending.get(correlationId);
      if (request === undefined || !request.types.includes(type)) return;
      this.#pending.delete(correlationId!);
      clearTimeout(request.timer);
      request.resolve(event);
    });
  }

  #deliver(event: BusEvent): void {
    // Only an event log or an inspector follows every event; most of the time nobody does.
    if (this.#everything.observed) this.#everything.next(event);
    this.#byType.get(event.type)?.next(event);
  }
}
