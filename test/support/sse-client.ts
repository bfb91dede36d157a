import { settlesWithin } from '../../testkit/eventually.js';

/** One Server-Sent Events frame as a client reads it; comments (heartbeats) are counted apart. */
export interface SseFrame {
  readonly event: string;
  readonly data: string;
  readonly id?: string;
}

/** How long `done` waits for a stream to end: each stream the tests await ends in well under a second when idle. */
const END_WITHIN_MS = 15_000;

/**
 * Reads an event stream frame by frame (a fetch response's body), as EventSource would: `event`
 * defaults to `message`, lines starting with `:` are comments.
 */
export class SseReader {
  readonly frames: SseFrame[] = [];
  comments = 0;
  ended = false;
  #buffer = '';
  readonly #reading: Promise<void>;

  constructor(body: ReadableStream<Uint8Array>) {
    this.#reading = this.#read(body);
  }

  /** Resolves once the stream has ended; rejects (with the events read) if it has not within 15 s of being awaited. */
  get done(): Promise<void> {
    return settlesWithin('the event stream to end', this.#reading, END_WITHIN_MS).catch((error: Error) => {
      throw new Error(`${error.message}; read so far: ${this.frames.map((frame) => frame.event).join(' ') || 'nothing'}`);
    });
  }

  /** The frames of one event type, their data parsed as JSON. */
  data(event: string): any[] {
    return this.frames.filter((frame) => frame.event === event).map((frame) => JSON.parse(frame.data));
  }

  async #read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of body) {
        this.#buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = this.#buffer.indexOf('\n\n')) !== -1) {
          this.#parse(this.#buffer.slice(0, end));
          this.#buffer = this.#buffer.slice(end + 2);
        }
      }
    } catch {
      // The test cut the stream.
    } finally {
      this.ended = true;
    }
  }

  #parse(block: string): void {
    let event = 'message';
    let id: string | undefined;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) {
        this.comments += 1;
        continue;
      }
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'id') id = value;
    }
    if (data.length > 0) this.frames.push({ event, data: data.join('\n'), ...(id === undefined ? {} : { id }) });
  }
}
