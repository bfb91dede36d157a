import type { Subscription } from 'rxjs';
import type { Bus } from '../../src/bus/bus.js';
import type { ChatRejection, SystemPhase } from '../../src/bus/events.js';
import type { Appraisal, AvatarShape, Emotions, Sentiment } from '../../src/emotions/emotions.js';
import { phaseRejection } from '../../src/bus/phase-rejection.js';
import { ANGRY_APPRAISAL } from './moods.js';

/** What the fake does with the next chat request. */
export type ChatBehaviour =
  | {
      readonly kind: 'reply';
      readonly response: string;
      readonly emotions?: Emotions;
      readonly avatarShape?: AvatarShape;
      readonly appraisal?: Appraisal;
    }
  | { readonly kind: 'reject'; readonly reason: ChatRejection; readonly error: string }
  | { readonly kind: 'silent' };

/**
 * A stand-in for the actor system at its bus boundary: it answers
 * `status.requested` and `chat.requested` the way the real one does, from
 * state the test sets (a chat outside `ready` refused by its phase, as the
 * front desk does), and announces each phase the test sets. It is the routes'
 * isolation test support.
 */
export class FakeSystem {
  #phase: SystemPhase = 'ready';
  emotions: Emotions = { joy: 0.5, sadness: 0.123, anger: 0.1, fear: 0.1, curiosity: 0.456 };
  avatarShape: AvatarShape = 'Circle';
  sentiment: Sentiment = { sentiment: 'neutral', positive: 0, negative: 0 };
  lastUpdated = '2026-11-21T10:00:00.000Z';
  /** Set false to leave status requests unanswered (a stuck system). */
  answersStatus = true;
  chatBehaviour: ChatBehaviour = { kind: 'reply', response: 'Hello there!' };
  /** The messages the system accepted, in order. */
  readonly messages: string[] = [];
  /** The session key each message came with, in the same order. */
  readonly sessions: string[] = [];
  private readonly subscriptions: Subscription[];

  constructor(private readonly bus: Bus) {
    this.subscriptions = [
      bus.on('status.requested').subscribe(({ correlationId }) => {
        if (!this.answersStatus) return;
        bus.publish({
          type: 'status.reported',
          correlationId,
          phase: this.#phase,
          emotions: this.emotions,
          avatarShape: this.avatarShape,
          sentiment: this.sentiment,
          lastUpdated: this.lastUpdated,
        });
      }),
      // No conversation is kept: the page's history is empty.
      bus.on('history.requested').subscribe(({ correlationId }) => bus.publish({ type: 'history.reported', correlationId, messages: [] })),
      bus.on('chat.requested').subscribe(({ correlationId, message, session }) => {
        this.sessions.push(session);
        this.answerChat(correlationId, message);
      }),
    ];
    // As the real system does on leaving `initializing`.
    bus.publish({ type: 'system.phase.changed', phase: this.#phase });
  }

  get phase(): SystemPhase {
    return this.#phase;
  }

  set phase(phase: SystemPhase) {
    this.#phase = phase;
    this.bus.publish({ type: 'system.phase.changed', phase });
  }

  stop(): void {
    for (const subscription of this.subscriptions) subscription.unsubscribe();
  }

  private answerChat(correlationId: string, message: string): void {
    const phase = this.#phase;
    if (phase !== 'ready') {
      this.bus.publish({ type: 'chat.rejected', correlationId, ...phaseRejection(phase) });
      return;
    }
    this.messages.push(message);
    const behaviour = this.chatBehaviour;
    if (behaviour.kind === 'silent') return;
    if (behaviour.kind === 'reject') {
      this.bus.publish({ type: 'chat.rejected', correlationId, reason: behaviour.reason, error: behaviour.error });
      return;
    }
    if (behaviour.emotions) this.emotions = behaviour.emotions;
    if (behaviour.avatarShape) this.avatarShape = behaviour.avatarShape;
    this.bus.publish({
      type: 'chat.replied',
      correlationId,
      response: behaviour.response,
      avatarShape: this.avatarShape,
      emotions: this.emotions,
      appraisal: behaviour.appraisal ?? ANGRY_APPRAISAL,
    });
  }
}
