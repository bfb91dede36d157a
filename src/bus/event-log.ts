import { once } from 'node:events';
// sonic-boom is CommonJS: its class is both the module and the module's `SonicBoom` property, the one its types name.
import sonicBoom, { type SonicBoom } from 'sonic-boom';
import type { Subscription } from 'rxjs';
import type { Bus } from './bus.js';

export interface EventLogOptions {
  /** Bytes buffered before a write; the most a crash can lose besides `flushIntervalMs`. */
  readonly bufferBytes?: number;
  /** How often a quiet buffer is written anyway. */
  readonly flushIntervalMs?: number;
  /** Blanks the secrets out of a line before it is written (a provider's error quoting its key). */
  readonly redact?: (line: string) => string;
}

/**
 * Not written: a streamed reply's pieces (`chat.token`, one per piece) are in the log once, whole,
 * as the reply (`chat.replied`), and a replay needs neither. Written, they were
 * three lines in four of a log of streamed chats.
 */
export const UNLOGGED_EVENTS: ReadonlySet<string> = new Set(['chat.token']);

/**
 * Appends every bus event but `UNLOGGED_EVENTS` to a JSONL file, one event a line. Writes are
 * buffered (sonic-boom, pino's writer, without pino's exit hook, which would throw for a file never opened) and whole lines only are queued, so a
 * crash loses at most the unwritten tail and never touches earlier lines.
 */
export class EventLog {
  readonly #stream: SonicBoom;
  readonly #subscription: Subscription;
  readonly #ready: Promise<void>;
  /** The periodic flush: ours rather than sonic-boom's, whose timer outlives a file that never opened and then writes to fd -1. */
  readonly #flushTimer: NodeJS.Timeout;
  #open = false;
  #closing: Promise<void> | undefined;

  constructor(
    bus: Bus,
    readonly file: string,
    options: EventLogOptions = {},
  ) {
    const bufferBytes = options.bufferBytes ?? 8 * 1024;
    this.#stream = new sonicBoom.SonicBoom({
      dest: file,
      append: true,
      mkdir: true,
      minLength: bufferBytes,
      maxWrite: Math.max(16 * 1024, bufferBytes * 2),
    });
    this.#flushTimer = setInterval(() => {
      if (this.#open) this.#stream.flush();
    }, options.flushIntervalMs ?? 1000);
    this.#flushTimer.unref();
    // A file that cannot be opened must fail loudly, not crash the process later.
    this.#ready = Promise.race([
      once(this.#stream, 'ready').then(() => {
        this.#open = true;
      }),
      once(this.#stream, 'error').then(([error]) => Promise.reject(error as Error)),
    ]);
    this.#ready.catch(() => undefined);
    const redact = options.redact ?? ((line: string) => line);
    this.#subscription = bus.all().subscribe((event) => {
      if (UNLOGGED_EVENTS.has(event.type)) return;
      this.#stream.write(`${redact(JSON.stringify(event))}\n`);
    });
  }

  /** Resolves once the file is open; rejects when it cannot be. */
  opened(): Promise<void> {
    return this.#ready;
  }

  /** Writes the buffer now, blocking; for the last moments before `process.exit`. */
  flushSync(): void {
    try {
      this.#stream.flushSync();
    } catch {
      // Not open yet or already closed: nothing buffered can be written.
    }
  }

  /** Stops listening, writes what is buffered and closes the file. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#subscription.unsubscribe();
      clearInterval(this.#flushTimer);
      const opened = await this.#ready.then(
        () => true,
        () => false,
      );
      if (!opened) return;
      const closed = once(this.#stream, 'close');
      this.#stream.end();
      await closed;
    })();
    return this.#closing;
  }
}
