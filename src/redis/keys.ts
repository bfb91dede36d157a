import type { SessionKey } from '../bus/events.js';
import { DEFAULT_REDIS_PREFIX } from '../config/defaults.js';

/** The service's key names under one prefix, so that several services can share a Redis. */
export interface RedisKeys {
  /** The mood's one ordered stream of changes. */
  readonly moodStream: string;
  /** The counter that numbers the stream's entries 1, 2, 3… so a replica sees a gap at once. */
  readonly moodSequence: string;
  /** The last saved state and the stream position it covers. */
  readonly moodSnapshot: string;
  /** The latest changes with the emotions around each (a sorted set by entry number): `GET /api/mood/why` on every replica. */
  readonly moodJournal: string;
  /** Held by the one replica that drifts. */
  readonly driftLease: string;
  /** The secret that signs session ids, stored by the first replica when `SESSION_SECRET` is unset. */
  readonly sessionSecret: string;
  /**
   * One visitor's conversation, by its session key: the SHA-256 of the session id, hashed once, by
   * the HTTP layer (`sessionKey`), since the id is a credential. The id itself never gets here.
   */
  conversation(session: SessionKey): string;
  /** A handled webhook delivery, by its `Webhook-Id`. */
  webhookDelivery(webhookId: string): string;
  /** A streamed turn's frames, a stream whose entry ids are `0-<frame id>`. */
  turnFrames(turn: string): string;
  /** A streamed turn's visitor (session key) and the replica writing it. */
  turnOwner(turn: string): string;
  /** The turns running on any replica: turn id → the replica writing it. */
  readonly turnsRunning: string;
  /** A visitor's turns (turn id → its summary as JSON), so that a tab on any replica finds those running. */
  visitorTurns(session: SessionKey): string;
  /** Set, with a short time to live, while the replica of that id is alive. */
  replicaAlive(replica: string): string;
  /** The channel on which replicas tell each other of visitors' news and stops. */
  readonly visitorChannel: string;
}

export function redisKeys(prefix = DEFAULT_REDIS_PREFIX): RedisKeys {
  return {
    moodStream: `${prefix}mood`,
    moodSequence: `${prefix}mood:sequence`,
    moodSnapshot: `${prefix}mood:snapshot`,
    moodJournal: `${prefix}mood:journal`,
    driftLease: `${prefix}drift:lease`,
    sessionSecret: `${prefix}session:secret`,
    conversation: (session) => `${prefix}conversation:${session}`,
    webhookDelivery: (webhookId) => `${prefix}webhook-delivery:${webhookId}`,
    turnFrames: (turn) => `${prefix}turn:${turn}`,
    turnOwner: (turn) => `${prefix}turn:${turn}:owner`,
    turnsRunning: `${prefix}turns:running`,
    visitorTurns: (session) => `${prefix}turns:visitor:${session}`,
    replicaAlive: (replica) => `${prefix}replica:${replica}:alive`,
    visitorChannel: `${prefix}visitors`,
  };
}
