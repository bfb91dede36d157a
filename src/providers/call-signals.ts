import { setMaxListeners } from 'node:events';

/** The signal one provider call runs under; give it back with {@link CallSignals.release} when the call ends. */
export interface CallSignal {
  readonly signal: AbortSignal;
}

/** One controller shared by a batch of calls, and how many of them are still in flight. */
interface Batch extends CallSignal {
  readonly controller: AbortController;
  open: number;
}

/** Calls that share one signal: few enough that EventTarget's duplicate check on each added listener stays cheap. */
export const CALLS_PER_SIGNAL = 64;

/**
 * Abort signals for provider calls, each shared by up to {@link CALLS_PER_SIGNAL} calls, all
 * aborted at once by `abortAll()` when the dialogue stops. The openai client adds a listener to
 * the signal of every attempt of a call (its own retries included) and never removes it, so one
 * signal for every call would hold a listener per attempt ever made; a controller per call showed
 * in the chat's profile. A full batch's signal is dropped, its listeners with it, once its last
 * call has ended.
 */
export class CallSignals {
  readonly #inFlight = new Set<Batch>();
  readonly #attemptsPerCall: number;
  #current: Batch | undefined;
  #issued = 0;

  /** `attemptsPerCall`: the client's first try and its retries, each adding one listener to the call's signal. */
  constructor(attemptsPerCall = 1) {
    this.#attemptsPerCall = attemptsPerCall;
  }

  acquire(): CallSignal {
    if (this.#current === undefined || this.#issued === CALLS_PER_SIGNAL) {
      const controller = new AbortController();
      // Each attempt of each call of the batch adds one listener, so a batch holds at most this many:
      // a bound, not a leak, and no MaxListenersExceededWarning however often the client retries.
      setMaxListeners(CALLS_PER_SIGNAL * this.#attemptsPerCall, controller.signal);
      this.#current = { controller, signal: controller.signal, open: 0 };
      this.#issued = 0;
    }
    this.#issued += 1;
    const batch = this.#current;
    batch.open += 1;
    this.#inFlight.add(batch);
    return batch;
  }

  release(call: CallSignal): void {
    const batch = call as Batch;
    batch.open -= 1;
    if (batch.open === 0) this.#inFlight.delete(batch);
  }

  /** Aborts every call in flight; later calls get a new signal. */
  abortAll(): void {
    for (const batch of this.#inFlight) batch.controller.abort();
    this.#inFlight.clear();
    this.#current = undefined;
  }

  /** Signals with calls in flight (a test reads it to see that finished batches are let go). */
  get signalsInFlight(): number {
    return this.#inFlight.size;
  }
}
