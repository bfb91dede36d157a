/**
 * The deadlines of the bus's pending requests, on one shared timer instead of a `setTimeout` per
 * request (a timer per request showed in the round trip's profile).
 *
 * Requests with the same timeout expire in the order they were made, so each timeout has a FIFO
 * queue, and the one timer is armed for the earliest head among the queues. A request answered in
 * time is forgotten lazily: the queues drop answered heads as they go, so a queue holds about the
 * requests in flight, not every request of the last `timeoutMs`.
 */
export class Deadlines<K> {
  private readonly queues = new Map<number, Queue<K>>();
  private timer: NodeJS.Timeout | undefined;
  private armedFor = Infinity;

  /**
   * @param isPending whether a key still waits (answered keys are skipped and dropped)
   * @param expire called once for each key whose deadline passed while it was pending
   * @param now a monotonic clock in milliseconds
   */
  constructor(
    private readonly isPending: (key: K) => boolean,
    private readonly expire: (key: K) => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Expires `key` after `timeoutMs`, unless it is answered (no longer pending) by then. */
  add(key: K, timeoutMs: number): void {
    let queue = this.queues.get(timeoutMs);
    if (queue === undefined) {
      queue = new Queue<K>();
      this.queues.set(timeoutMs, queue);
    }
    queue.drop(this.isPending);
    const deadline = this.now() + timeoutMs;
    queue.push(key, deadline);
    if (deadline < this.armedFor) this.arm(deadline);
  }

  /** How many keys the queues hold, answered ones not yet dropped included. */
  get held(): number {
    let held = 0;
    for (const queue of this.queues.values()) held += queue.size;
    return held;
  }

  /** Stops the timer; pending keys never expire after this. */
  clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.armedFor = Infinity;
    this.queues.clear();
  }

  private arm(deadline: number): void {
    clearTimeout(this.timer);
    this.armedFor = deadline;
    this.timer = setTimeout(() => this.fire(), Math.max(0, deadline - this.now()));
  }

  private fire(): void {
    this.timer = undefined;
    this.armedFor = Infinity;
    const now = this.now();
    let next = Infinity;
    for (const [timeoutMs, queue] of this.queues) {
      queue.drop(this.isPending);
      while (queue.size > 0 && queue.headDeadline <= now) {
        const key = queue.shift();
        if (this.isPending(key)) this.expire(key);
        queue.drop(this.isPending);
      }
      if (queue.size === 0) this.queues.delete(timeoutMs);
      else next = Math.min(next, queue.headDeadline);
    }
    if (next < Infinity) this.arm(next);
  }
}

/** A FIFO of keys and their deadlines, in two arrays with a moving head (no `shift()` copies). */
class Queue<K> {
  private keys: K[] = [];
  private deadlines: number[] = [];
  private head = 0;

  get size(): number {
    return this.keys.length - this.head;
  }

  get headDeadline(): number {
    return this.deadlines[this.head]!;
  }

  push(key: K, deadline: number): void {
    this.keys.push(key);
    this.deadlines.push(deadline);
  }

  shift(): K {
    const key = this.keys[this.head]!;
    this.head += 1;
    this.compact();
    return key;
  }

  /** Drops the answered keys at the head. */
  drop(isPending: (key: K) => boolean): void {
    const start = this.head;
    while (this.head < this.keys.length && !isPending(this.keys[this.head]!)) this.head += 1;
    if (this.head !== start) this.compact();
  }

  private compact(): void {
    if (this.head === this.keys.length) {
      this.keys = [];
      this.deadlines = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.keys.length) {
      this.keys = this.keys.slice(this.head);
      this.deadlines = this.deadlines.slice(this.head);
      this.head = 0;
    }
  }
}
