import { randomUUID } from 'node:crypto';
import type { ChainableCommander, Redis } from 'ioredis';
import type { SessionKey } from '../bus/events.js';
import { ERRORS } from '../errors/catalogue.js';
import { epochMs, systemClock, type Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import { MemoryTurnLog } from '../turns/memory-turn-log.js';
import {
  DEFAULT_TURN_KEEP_MS,
  endsTurn,
  type TurnEvent,
  type TurnFollower,
  type TurnFrame,
  type TurnLog,
  type TurnSummary,
  type TurnWriter,
} from '../turns/turn-log.js';
import type { RedisKeys } from './keys.js';

export interface RedisTurnLogOptions {
  /** The replicas' shared command connection; closed by its owner. */
  readonly client: Redis;
  readonly keys: RedisKeys;
  readonly logger: Logger;
  readonly clock?: Clock;
  /** This replica's id (random by default), the one its visitor relay says it is. */
  readonly replica?: string;
  readonly keepMs?: number;
  /** How long this replica counts as alive after its last sign of life; renewed four times as often. */
  readonly aliveMs?: number;
  /** How often this replica looks for turns whose replica died. */
  readonly sweepMs?: number;
  /** How often a reader on another replica than the writer's looks for new frames. */
  readonly pollMs?: number;
  /** How long the frames written are gathered before they go to Redis together, in one round trip. */
  readonly batchMs?: number;
}

/**
 * The defaults end a dead replica's turn within about 1.5 s of its death (alive 1.2 s, sweep every
 * 200 ms, a reader polls every 50 ms); a live replica is marked dead only if its event loop stalls
 * for the 0.9 s between a renewal and the expiry.
 */
const DEFAULT_ALIVE_MS = 1200;
const DEFAULT_SWEEP_MS = 200;
const DEFAULT_POLL_MS = 50;
const DEFAULT_BATCH_MS = 5;
/** A turn's keys outlive even a Redis left alone by every replica, but not forever. */
export const ABANDONED_TURN_MS = 3_600_000;
/** A turn's stream holds at most about this many frames (a reply is bounded by the provider's tokens long before). */
export const MAX_TURN_FRAMES = 10_000;

/** Ends a dead replica's turn once, whichever replica gets there first: its `error` frame, then its keys expire. */
const END_LOST_TURN = `
if redis.call('HDEL', KEYS[1], ARGV[1]) == 1 then
  redis.call('XADD', KEYS[2], '0-*', 'event', 'error', 'data', ARGV[2])
  redis.call('PEXPIRE', KEYS[2], ARGV[3])
  redis.call('PEXPIRE', KEYS[3], ARGV[3])
  redis.call('HDEL', KEYS[4], ARGV[1])
  return 1
end
return 0`;

/** The `error` frame of a turn whose replica died. */
const LOST_FRAME = JSON.stringify({ error: ERRORS.TURN_LOST.message, code: 'TURN_LOST' });

/** A stream entry `[id, [field, value, …]]` as the frame it holds. */
function frameOf([id, fields]: [string, string[]]): TurnFrame {
  const value = (name: string): string => fields[fields.indexOf(name) + 1] ?? '';
  return { id: Number(id.slice(id.indexOf('-') + 1)), event: value('event') as TurnEvent, data: value('data') };
}

/** A running turn of a visitor, and the replica writing it. */
export interface RunningTurn extends TurnSummary {
  readonly replica: string;
}

/**
 * The turns of replicas on Redis. The turns this replica writes are kept in memory too (a reader
 * here follows them without Redis), and each frame is appended to the turn's stream (entry id
 * `0-<frame id>`), so that a reader on any replica reads it there, polling for new ones. The frames
 * of every turn go in one pipeline every few milliseconds: one round trip per window, not one per
 * token. Each replica says it is alive with a key that expires; a replica finds the running turns of
 * a replica that is no longer alive and ends each with an `error` frame (`TURN_LOST`), once, in a
 * script, so that no page waits forever for a reply nobody writes. Nothing commits for such a turn:
 * the replica that died never appended its mood change.
 */
export class RedisTurnLog implements TurnLog {
  readonly #options: RedisTurnLogOptions;
  readonly #local: MemoryTurnLog;
  readonly #keepMs: number;
  readonly #aliveMs: number;
  readonly #batchMs: number;
  readonly #clock: Clock;
  readonly replica: string;
  readonly #timers: NodeJS.Timeout[] = [];
  readonly #polls = new Set<NodeJS.Timeout>();
  /** The frames waiting for the next round trip, and its timer. */
  #batch: ChainableCommander | undefined;
  #batchTimer: NodeJS.Timeout | undefined;
  /** Round trips that carried frames (the bench's "Redis round trips per chat"). */
  frameRoundTrips = 0;
  #closed = false;

  constructor(options: RedisTurnLogOptions) {
    this.#options = options;
    this.replica = options.replica ?? randomUUID();
    this.#clock = options.clock ?? systemClock;
    this.#keepMs = options.keepMs ?? DEFAULT_TURN_KEEP_MS;
    this.#aliveMs = options.aliveMs ?? DEFAULT_ALIVE_MS;
    this.#batchMs = options.batchMs ?? DEFAULT_BATCH_MS;
    this.#local = new MemoryTurnLog({ keepMs: this.#keepMs, clock: this.#clock });
    this.#alive();
    this.#timers.push(setInterval(() => this.#alive(), Math.max(1, Math.floor(this.#aliveMs / 4))));
    this.#timers.push(setInterval(() => void this.#sweep(), options.sweepMs ?? DEFAULT_SWEEP_MS));
    for (const timer of this.#timers) timer.unref();
  }

  open(turn: string, session: SessionKey, about: Omit<TurnSummary, 'id'>): TurnWriter {
    const { client, keys } = this.#options;
    const local = this.#local.open(turn, session, about);
    const frames = keys.turnFrames(turn);
    const owner = keys.turnOwner(turn);
    const visitor = keys.visitorTurns(session);
    const summary = JSON.stringify({ id: turn, ...about, at: epochMs(this.#clock) });
    // At once, not with the next batch: a replica told of the turn finds its owner when it asks.
    this.#quietly(
      client
        .pipeline()
        .hset(owner, 'session', session, 'replica', this.replica)
        .pexpire(owner, ABANDONED_TURN_MS)
        .hset(keys.turnsRunning, turn, this.replica)
        .hset(visitor, turn, summary)
        .pexpire(visitor, ABANDONED_TURN_MS)
        .exec(),
    );
    return {
      write: (event, data) => {
        const frame = local.write(event, data);
        const batch = this.#batched();
        batch.xadd(frames, 'MAXLEN', '~', MAX_TURN_FRAMES, `0-${frame.id}`, 'event', event, 'data', data);
        if (endsTurn(event)) {
          batch.hdel(keys.turnsRunning, turn).hdel(visitor, turn).pexpire(frames, this.#keepMs).pexpire(owner, this.#keepMs);
        } else if (frame.id === 1) batch.pexpire(frames, ABANDONED_TURN_MS);
        return frame;
      },
    };
  }

  async follow(turn: string, session: SessionKey, after: number, onFrame: (frame: TurnFrame) => void): Promise<TurnFollower | undefined> {
    const here = await this.#local.follow(turn, session, after, onFrame);
    if (here !== undefined) return here;
    const { client, keys, pollMs } = this.#options;
    if ((await client.hget(keys.turnOwner(turn), 'session')) !== session) return undefined;
    let last = after;
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    // Asked before the first read: a turn that had ended then has all its frames in its stream.
    let ended = (await client.hexists(keys.turnsRunning, turn)) === 0;
    const read = async (): Promise<void> => {
      timer = undefined;
      if (stopped || this.#closed) return;
      const entries = (await client.xrange(keys.turnFrames(turn), `(0-${last}`, '+', 'COUNT', 500)) as [string, string[]][];
      for (const entry of entries) {
        const frame = frameOf(entry);
        last = frame.id;
        onFrame(frame);
        if (endsTurn(frame.event)) {
          ended = true;
          return;
        }
      }
      if (ended) return entries.length < 500 ? undefined : read();
      if (stopped) return;
      timer = setTimeout(() => {
        if (timer) this.#polls.delete(timer);
        read().catch((error: unknown) => this.#options.logger.warn({ err: error, turn }, 'a turn could not be read from Redis'));
      }, pollMs ?? DEFAULT_POLL_MS);
      this.#polls.add(timer);
    };
    await read();
    return {
      ended,
      close: () => {
        stopped = true;
        if (timer) {
          clearTimeout(timer);
          this.#polls.delete(timer);
        }
      },
    };
  }

  /** The visitor's turns running on every replica; Redis unreachable: those running here. */
  async running(session: SessionKey): Promise<readonly TurnSummary[]> {
    try {
      return (await this.runningOn(session)).map(({ replica: _replica, ...summary }) => summary);
    } catch (error) {
      this.#options.logger.debug({ err: error }, "the visitor's turns on other replicas could not be read; those here only");
      return this.#local.runningHere(session);
    }
  }

  /** The visitor's running turns on every replica, oldest first, each with the replica writing it. */
  async runningOn(session: SessionKey): Promise<RunningTurn[]> {
    const { client, keys } = this.#options;
    const summaries = Object.values(await client.hgetall(keys.visitorTurns(session))).map(
      (json) => JSON.parse(json) as TurnSummary & { at: number },
    );
    if (summaries.length === 0) return [];
    const replicas = await client.hmget(keys.turnsRunning, ...summaries.map((summary) => summary.id));
    return summaries
      .map(({ at, ...summary }, index) => ({ at, turn: { ...summary, replica: replicas[index] ?? '' } }))
      .filter(({ turn }) => turn.replica !== '')
      .sort((a, b) => a.at - b.at)
      .map(({ turn }) => turn);
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of [...this.#timers, ...this.#polls]) clearTimeout(timer);
    this.#flush();
    await this.#local.close();
    await this.#options.client.del(this.#options.keys.replicaAlive(this.replica)).catch(() => undefined);
  }

  /** The pipeline of the current window, sent when the window ends. */
  #batched(): ChainableCommander {
    if (this.#batch === undefined) {
      this.#batch = this.#options.client.pipeline();
      this.#batchTimer = setTimeout(() => this.#flush(), this.#batchMs);
    }
    return this.#batch;
  }

  /** One round trip for the window's frames; one connection keeps them in the order written. */
  #flush(): void {
    const batch = this.#batch;
    if (batch === undefined) return;
    clearTimeout(this.#batchTimer);
    this.#batch = undefined;
    this.#batchTimer = undefined;
    this.frameRoundTrips++;
    this.#quietly(batch.exec());
  }

  #alive(): void {
    this.#quietly(this.#options.client.set(this.#options.keys.replicaAlive(this.replica), '1', 'PX', this.#aliveMs));
  }

  /** Ends the running turns whose replica is no longer alive. */
  async #sweep(): Promise<void> {
    const { client, keys, logger } = this.#options;
    try {
      const running = Object.entries(await client.hgetall(keys.turnsRunning));
      const replicas = [...new Set(running.map(([, replica]) => replica))].filter((replica) => replica !== this.replica);
      const dead = new Set<string>();
      for (const replica of replicas) if ((await client.exists(keys.replicaAlive(replica))) === 0) dead.add(replica);
      for (const [turn, replica] of running) {
        if (!dead.has(replica)) continue;
        const session = (await client.hget(keys.turnOwner(turn), 'session')) ?? '';
        const ended = await client.eval(
          END_LOST_TURN,
          4,
          keys.turnsRunning,
          keys.turnFrames(turn),
          keys.turnOwner(turn),
          keys.visitorTurns(session),
          turn,
          LOST_FRAME,
          String(this.#keepMs),
        );
        if (ended === 1) logger.warn({ turn, replica }, 'a turn of a replica that died was ended with an error frame');
      }
    } catch (error) {
      if (!this.#closed) logger.debug({ err: error }, 'the sweep for turns of dead replicas failed; it runs again');
    }
  }

  /** A write whose failure loses only what a resume could read: the writer's own stream goes on. */
  #quietly(command: Promise<unknown>): void {
    command.catch((error: unknown) => this.#options.logger.debug({ err: error }, 'a turn frame could not be kept on Redis'));
  }
}
