import type { Bus } from '../bus/bus.js';
import type {
  ChatRejected,
  ChatReplied,
  HistoryImported,
  HistoryMessage,
  HistoryReported,
  MoodWhyReported,
  SessionKey,
  StatusReported,
  SystemPhase,
} from '../bus/events.js';

export interface SystemTimeouts {
  /** How long a `status.requested` may wait for its report; the system answers it at once in every phase. */
  readonly statusMs: number;
  /** How long a chat may wait for its reply; longer than one provider call. */
  readonly chatMs: number;
}

/** Hears a streamed chat's acceptance, then each piece of its reply, in order. */
export interface StreamListener {
  accepted(): void;
  token(text: string): void;
}

/** What a chat redoes, if anything: a new reply to the last message, or a new last message. */
export type Redo = 'regenerate' | 'edit';

/** A streamed chat's turn and what it redoes. */
export interface ChatOptions {
  readonly redo?: Redo;
  readonly turn?: string;
}

/**
 * What the routes ask the actor system, over the bus and nothing else: the
 * HTTP layer never sees an actor, a provider or a file.
 */
export class SystemClient {
  readonly #bus: Bus;
  readonly #timeouts: SystemTimeouts;
  /** The streamed chats waiting for their pieces, by correlation id: one bus subscription serves them all. */
  readonly #streams = new Map<string, StreamListener>();
  #phase: SystemPhase = 'initializing';

  constructor(bus: Bus, timeouts: SystemTimeouts) {
    this.#bus = bus;
    this.#timeouts = timeouts;
    bus.on('chat.accepted').subscribe(({ correlationId }) => this.#streams.get(correlationId)?.accepted());
    bus.on('chat.token').subscribe(({ correlationId, text }) => this.#streams.get(correlationId)?.token(text));
    // The app is built before the system is created: it hears every announcement from the first.
    bus.on('system.phase.changed').subscribe(({ phase }) => (this.#phase = phase));
  }

  /**
   * The system's phase as its announcements said it, held here without asking: what a request the
   * system never sees is told (a chat whose body is broken, a stop). A chat's own phase check is the
   * system's, once, when it receives the chat.
   */
  get phase(): SystemPhase {
    return this.#phase;
  }

  status(): Promise<StatusReported> {
    return this.#bus.request({ type: 'status.requested' }, 'status.reported', this.#timeouts.statusMs);
  }

  chat(message: string, session: SessionKey, { redo }: ChatOptions = {}): Promise<ChatReplied | ChatRejected> {
    return this.#bus.request(
      { type: 'chat.requested', message, session, ...(redo ? { redo } : {}) },
      ['chat.replied', 'chat.rejected'],
      this.#timeouts.chatMs,
    );
  }

  /**
   * A streamed chat: `listener.accepted` is called once the system accepted it (the stream may open;
   * a chat refused at once never is), then `listener.token` with each piece of the reply
   * (`chat.token`) until the reply or rejection comes.
   */
  async chatStream(
    message: string,
    session: SessionKey,
    listener: StreamListener,
    { redo, turn }: ChatOptions = {},
  ): Promise<ChatReplied | ChatRejected> {
    const correlationId = this.#bus.newCorrelationId();
    this.#streams.set(correlationId, listener);
    try {
      return await this.#bus.request(
        { type: 'chat.requested', correlationId, message, session, stream: true, ...(turn ? { turn } : {}), ...(redo ? { redo } : {}) },
        ['chat.replied', 'chat.rejected'],
        this.#timeouts.chatMs,
      );
    } finally {
      this.#streams.delete(correlationId);
    }
  }

  /** Stops the visitor's streamed replies in flight (one turn, or all without `turn`); resolves with how many were. */
  async stop(session: SessionKey, turn?: string): Promise<number> {
    const answer = await this.#bus.request(
      { type: 'chat.stop.requested', session, ...(turn === undefined ? {} : { turn }) },
      'chat.stop.answered',
      this.#timeouts.statusMs,
    );
    return answer.stopped;
  }

  /** What moved the shared mood lately (`GET /api/mood/why`). */
  moodWhy(): Promise<MoodWhyReported> {
    return this.#bus.request({ type: 'mood.why.requested' }, 'mood.why.reported', this.#timeouts.statusMs);
  }

  /** Puts the messages of an imported file into the visitor's conversation, after it or (`replace`) in its place. */
  importHistory(session: SessionKey, messages: HistoryMessage[], replace: boolean): Promise<HistoryImported> {
    return this.#bus.request({ type: 'history.import.requested', session, messages, replace }, 'history.imported', this.#timeouts.statusMs);
  }

  /** The visitor's conversation, or (`forget`) forgets it first. */
  history(session: SessionKey, forget: boolean): Promise<HistoryReported> {
    return this.#bus.request({ type: 'history.requested', session, forget }, 'history.reported', this.#timeouts.statusMs);
  }
}
