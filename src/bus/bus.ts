import { randomUUID } from 'node:crypto';
import { Observable, Subject, filter, firstValueFrom, take, timeout, throwError } from 'rxjs';
import { systemClock, type Clock } from '../runtime/clock.js';
import { BusClosedError, BusTimeoutError } from './errors.js';
import type { BusEvent, EventInput, EventOf, EventType } from './events.js';

/** The events that open a request/reply exchange. */
export type RequestInput = Extract<EventInput, { readonly correlationId: string }> extends infer E
  ? E extends { readonly correlationId: string }
    ? Omit<E, 'correlationId'> & { readonly correlationId?: string }
    : never
  : never;

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
  private delivering = false;
  private closed = false;

  constructor(options: BusOptions = {}) {
    this.clock = options.clock ?? systemClock;
  }

  /** Stamps the event with the clock when it has no `at`, then delivers it. */
  publish(input: EventInput): BusEvent {
    if (this.closed) throw new BusClosedError(input.type);
    const event = (input.at === undefined ? { ...input, at: this.clock.now().toISOString() } : input) as BusEvent;
    this.queue.push(event);
    if (!this.delivering) this.drain();
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
   * `replyTypes` that carries the same correlation id. The subscription is
   * made before publishing, since replies may come synchronously, and it is
   * released on reply or on timeout.
   */
  request<R extends EventType>(
    input: RequestInput,
    replyTypes: R | readonly R[],
    timeoutMs: number,
  ): Promise<EventOf<R>> {
    const correlationId = input.correlationId ?? randomUUID();
    const types: readonly R[] = Array.isArray(replyTypes) ? replyTypes : [replyTypes as R];
    const replies = new Observable<EventOf<R>>((subscriber) => {
      const subscriptions = types.map((type) =>
        this.on(type)
          .pipe(filter((event) => (event as { correlationId?: string }).correlationId === correlationId))
          .subscribe(subscriber),
      );
      return () => subscriptions.forEach((subscription) => subscription.unsubscribe());
    });
    const reply = firstValueFrom(
      replies.pipe(
        take(1),
        timeout({
          first: timeoutMs,
          with: () => throwError(() => new BusTimeoutError(input.type, types, timeoutMs, correlationId)),
        }),
      ),
    );
    try {
      this.publish({ ...input, correlationId } as EventInput);
    } catch (error) {
      reply.catch(() => undefined);
      return Promise.reject(error as Error);
    }
    return reply;
  }

  /** Completes every stream; later publishes throw. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.everything.complete();
    for (const subject of this.byType.values()) subject.complete();
  }

  private drain(): void {
    this.delivering = true;
    try {
      let event: BusEvent | undefined;
      while ((event = this.queue.shift()) !== undefined) {
        this.everything.next(event);
        this.byType.get(event.type)?.next(event);
      }
    } finally {
      this.delivering = false;
    }
  }
}
