import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { SessionKey } from '../bus/events.js';
import { ERRORS } from '../errors/catalogue.js';
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
  readonly keepMs?: number;
  /** How long this replica counts as alive after its last sign of life; renewed three times as often. */
  readonly aliveMs?: number;
  /** How often this replica looks for turns whose replica died. */
  readonly sweepMs?: number;
  /** How often a reader on another replica than the writer's looks for new frames. */
  readonly pollMs?: number;
}

/** The defaults put the end of a dead replica's turn within 4 s of its death (alive 3 s, sweep every 1 s). */
const DEFAULT_ALIVE_MS = 3000;
const DEFAULT_SWEEP_MS = 1000;
const DEFAULT_POLL_MS = 50;
/** A turn's keys outlive even a Redis left alone by every replica, but not forever. */
const ABANDONED_TURN_MS = 3_600_000;

/** Ends a dead replica's turn once, whichever replica gets there first: its `error` frame, then its keys expire. */
const END_LOST_TURN = `
if redis.call('HDEL', KEYS[1], ARGV[1]) == 1 then
  redis.call('XADD', KEYS[2], '0-*', 'event', 'error', 'data', ARGV[2])
  redis.call('PEXPIRE', KEYS[2], ARGV[3])
  redis.call('PEXPIRE', KEYS[3], ARGV[3])
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

/**
 * The turns of replicas on Redis. The turns this replica writes are kept in memory too (a reader
 * here follows them without Redis), and each frame is appended to the turn's stream (entry id
 * `0-<frame id>`), so that a reader on any replica reads it there, polling for new ones. Each
 * replica says it is alive with a key that expires; a replica finds the running turns of a replica
 * that is no longer alive and ends each with an `error` frame (`TURN_LOST`), once, in a script, so
 * that no page waits forever for a reply nobody writes. Nothing commits for such a turn: the
 * replica that died never appended its mood change.
 */
export class RedisTurnLog implements TurnLog {
  readonly #options: RedisTurnLogOptions;
  readonly #local: MemoryTurnLog;
  readonly #keepMs: number;
  readonly #aliveMs: number;
  readonly #replica = randomUUID();
  readonly #timers: NodeJS.Timeout[] = [];
  readonly #polls = new Set<NodeJS.Timeout>();
  #closed = false;

  constructor(options: RedisTurnLogOptions) {
    this.#options = options;
    this.#keepMs = options.keepMs ?? DEFAULT_TURN_KEEP_MS;
    this.#aliveMs = options.aliveMs ?? DEFAULT_ALIVE_MS;
    this.#local = new MemoryTurnLog({ keepMs: this.#keepMs });
    this.#alive();
    this.#timers.push(setInterval(() => this.#alive(), Math.max(1, Math.floor(this.#aliveMs / 3))));
    this.#timers.push(setInterval(() => void this.#sweep(), options.sweepMs ?? DEFAULT_SWEEP_MS));
    for (const timer of this.#timers) timer.unref();
  }

  open(turn: string, session: SessionKey, about: Omit<TurnSummary, 'id'>): TurnWriter {
    const { client, keys } = this.#options;
    const local = this.#local.open(turn, session, about);
    const frames = keys.turnFrames(turn);
    const owner = keys.turnOwner(turn);
    this.#quietly(
      client
        .multi()
        .hset(owner, 'session', session, 'replica', this.#replica)
        .pexpire(owner, ABANDONED_TURN_MS)
        .hset(keys.turnsRunning, turn, this.#replica)
        .exec(),
    );
    return {
      write: (event, data) => {
        const frame = local.write(event, data);
        // One connection keeps the commands in order: the frames reach the stream in the order written.
        const append = client.multi().xadd(frames, `0-${frame.id}`, 'event', event, 'data', data);
        if (endsTurn(event)) append.hdel(keys.turnsRunning, turn).pexpire(frames, this.#keepMs).pexpire(owner, this.#keepMs);
        else if (frame.id === 1) append.pexpire(frames, ABANDONED_TURN_MS);
        this.#quietly(append.exec());
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

  running(session: SessionKey): readonly TurnSummary[] {
    return this.#local.running(session);
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of [...this.#timers, ...this.#polls]) clearTimeout(timer);
    await this.#local.close();
    await this.#options.client.del(this.#options.keys.replicaAlive(this.#replica)).catch(() => undefined);
  }

  #alive(): void {
    this.#quietly(this.#options.client.set(this.#options.keys.replicaAlive(this.#replica), '1', 'PX', this.#aliveMs));
  }

  /** Ends the running turns whose replica is no longer alive. */
  async #sweep(): Promise<void> {
    const { client, keys, logger } = this.#options;
    try {
      const running = Object.entries(await client.hgetall(keys.turnsRunning));
      const replicas = [...new Set(running.map(([, replica]) => replica))].filter((replica) => replica !== this.#replica);
      const dead = new Set<string>();
      for (const replica of replicas) if ((await client.exists(keys.replicaAlive(replica))) === 0) dead.add(replica);
      for (const [turn, replica] of running) {
        if (!dead.has(replica)) continue;
        const ended = await client.eval(
          END_LOST_TURN,
          3,
          keys.turnsRunning,
          keys.turnFrames(turn),
          keys.turnOwner(turn),
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
