import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import type { Subscription } from 'rxjs';
import type { Bus } from '../bus/bus.js';
import type { EmotionState } from '../emotions/state.js';
import type { MoodChange, MoodLedger } from '../mood/mood-ledger.js';
import { systemClock, type Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import { DEFAULT_COMMAND_TIMEOUT_MS, unavailable, whenReady } from './connection.js';
import { RedisUnavailableError } from './errors.js';
import type { RedisKeys } from './keys.js';
import { catchUp, expectNext } from './mood-history.js';
import { decodeMoodEntry, encodeMoodChange, type MoodEntry, type StreamPosition } from './mood-entry.js';
import { DEFAULT_STREAM_RETENTION_MS, loadMoodSnapshot, saveMoodSnapshot, seedMoodSnapshot, type MoodSnapshot } from './mood-snapshot.js';

/** As the emotions file: changes within this window become one snapshot write. */
export const DEFAULT_SNAPSHOT_WINDOW_MS = 100;

/** Entries one XREAD returns at most. */
const PAGE = 500;
/** How long one XREAD waits for new entries before it asks again. */
const BLOCK_MS = 5000;
/** Pause before reading again after a failed read on a connection that says it is ready. */
const RETRY_MS = 100;

// Numbers the entry and appends it in one step, unless Redis runs it after the deadline the
// caller gave up at (a frozen Redis answers late): a change whose append was reported as failed
// must never take effect later.
const APPEND = `
local now = redis.call('TIME')
if tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) > tonumber(ARGV[2]) then return false end
local seq = redis.call('INCR', KEYS[2])
return redis.call('XADD', KEYS[1], '*', 'seq', seq, 'change', ARGV[1])`;

export interface RedisMoodLedgerOptions {
  /** Commands; shared with the other adapters and closed by its owner. */
  readonly client: Redis;
  /** A connection of the ledger's own for the blocking read, without a command timeout; closed with the ledger. */
  readonly reader: Redis;
  readonly keys: RedisKeys;
  readonly logger: Logger;
  /** Where the mood's owner publishes `mood.changed`: the state after each delivered entry, which the snapshot saves. */
  readonly bus: Pick<Bus, 'on'>;
  /** The state to start from when Redis holds none yet (the first replica's emotions file, or the defaults); read only then. */
  readonly seed: () => Promise<EmotionState>;
  readonly clock?: Clock;
  /** The command connection's timeout: an append fails after it, and Redis refuses to run it after 3/4 of it. */
  readonly appendTimeoutMs?: number;
  readonly snapshotWindowMs?: number;
  readonly retentionMs?: number;
  /** Called once if this replica can no longer follow the stream (entries it missed were trimmed). */
  readonly onFailure: (error: Error) => void;
}

/**
 * The mood ledger shared by replicas: one Redis stream. `append` numbers and adds an entry;
 * every replica reads the stream from the last entry it delivered (XREAD BLOCK), so each entry is
 * delivered once, in stream order, also across reconnects. The mood's owner folds each delivered
 * change and publishes the state after it (`mood.changed`); the ledger saves that state, with the
 * entry's position, as a snapshot (coalesced) that a starting replica loads before reading the
 * stream after it. It folds nothing itself once running: only the catch-up at start does.
 */
export class RedisMoodLedger implements MoodLedger {
  readonly #options: RedisMoodLedgerOptions;
  readonly #subscribers = new Set<(change: MoodChange) => void>();
  readonly #stop = new AbortController();
  readonly #moods: Subscription;
  /** The last entry delivered: where the stream is read from. */
  #position: StreamPosition;
  /** The entry being delivered, whose `mood.changed` the snapshot waits for. */
  #delivering: StreamPosition | undefined;
  /** The state after the last entry the mood's owner folded, and that entry's position: what a snapshot saves. */
  #current: MoodSnapshot;
  #following = false;
  #snapshotTimer: NodeJS.Timeout | undefined;
  #saving: Promise<void> = Promise.resolve();
  #closing: Promise<void> | undefined;

  private constructor(options: RedisMoodLedgerOptions, start: MoodSnapshot) {
    this.#options = options;
    this.#current = start;
    this.#position = start.position;
    this.#moods = options.bus.on('mood.changed').subscribe(({ emotions, avatarShape, sentiment, lastUpdated }) => {
      if (this.#delivering === undefined) return;
      this.#current = { state: { emotions, avatarShape, sentiment, lastUpdated }, position: this.#delivering };
      this.#snapshotTimer ??= setTimeout(() => {
        this.#snapshotTimer = undefined;
        this.#saveSnapshot();
      }, this.#options.snapshotWindowMs ?? DEFAULT_SNAPSHOT_WINDOW_MS);
    });
  }

  /** Loads the snapshot (saving `seed` as the first one if there is none) and the stream after it. */
  static async open(options: RedisMoodLedgerOptions): Promise<RedisMoodLedger> {
    const { client, keys } = options;
    try {
      let snapshot = await loadMoodSnapshot(client, keys);
      if (snapshot === undefined) {
        // Several replicas may start at once: the seed script keeps the first seed saved.
        await seedMoodSnapshot(client, keys, await options.seed());
        snapshot = await loadMoodSnapshot(client, keys);
      }
      return new RedisMoodLedger(options, await catchUp(client, keys, snapshot!));
    } catch (error) {
      options.reader.disconnect();
      throw error;
    }
  }

  /** The state after every change folded so far: at start, what the actors start from. */
  get state(): EmotionState {
    return this.#current.state;
  }

  async append(change: MoodChange): Promise<void> {
    if (this.#closing) throw new RedisUnavailableError('the mood ledger is closed');
    const { client, keys, clock = systemClock, appendTimeoutMs = DEFAULT_COMMAND_TIMEOUT_MS } = this.#options;
    // A quarter of the wait earlier than the client gives up: an append Redis runs just in time
    // still has time for its reply to arrive, so "timed out" means "not appended".
    const deadline = clock.now().getTime() + Math.floor((appendTimeoutMs * 3) / 4);
    let id: unknown;
    try {
      id = await client.eval(APPEND, 2, keys.moodStream, keys.moodSequence, encodeMoodChange(change), deadline);
    } catch (error) {
      throw unavailable('record the mood change', error);
    }
    if (id === null) throw new RedisUnavailableError('Redis is unavailable: the mood change reached Redis too late and was dropped');
  }

  subscribe(apply: (change: MoodChange) => void): () => void {
    this.#subscribers.add(apply);
    if (!this.#following && !this.#closing) {
      this.#following = true;
      void this.#follow();
    }
    return () => this.#subscribers.delete(apply);
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#stop.abort();
      this.#moods.unsubscribe();
      clearTimeout(this.#snapshotTimer);
      this.#saveSnapshot();
      await this.#saving;
      this.#options.reader.disconnect();
    })();
    return this.#closing;
  }

  async #follow(): Promise<void> {
    const { reader, keys } = this.#options;
    const signal = this.#stop.signal;
    let failing = false;
    while (!signal.aborted) {
      let reply: [string, [string, string[]][]][] | null;
      try {
        reply = (await reader.xread('COUNT', PAGE, 'BLOCK', BLOCK_MS, 'STREAMS', keys.moodStream, this.#position.id)) as typeof reply;
        failing = false;
      } catch (error) {
        // A lost connection is logged by the connection and reconnects by itself; anything else
        // (the key is not a stream) is logged once here. Either way, read on from the same position.
        if (!failing && reader.status === 'ready' && !signal.aborted) {
          this.#options.logger.error({ reason: (error as Error).message }, `cannot read the mood stream: ${(error as Error).message}`);
        }
        failing = true;
        await whenReady(reader, signal);
        await sleep(RETRY_MS, undefined, { signal }).catch(() => undefined);
        continue;
      }
      if (signal.aborted) return;
      try {
        for (const raw of reply?.[0]?.[1] ?? []) this.#deliver(decodeMoodEntry(raw));
      } catch (error) {
        this.#fail(error as Error);
        return;
      }
    }
  }

  #deliver(entry: MoodEntry): void {
    expectNext(this.#position, entry);
    this.#position = entry.position;
    this.#delivering = entry.position;
    for (const apply of this.#subscribers) {
      try {
        apply(entry.change);
      } catch (error) {
        this.#options.logger.error({ err: error, entry: entry.position.id }, 'a mood ledger subscriber failed');
      }
    }
    this.#delivering = undefined;
  }

  /** Queues a save of the current state; a failure is logged, the next change saves again. */
  #saveSnapshot(): void {
    const { client, keys, logger, retentionMs = DEFAULT_STREAM_RETENTION_MS } = this.#options;
    const snapshot = this.#current;
    this.#saving = this.#saving
      .then(() => saveMoodSnapshot(client, keys, snapshot, retentionMs))
      .then(
        () => undefined,
        (error: unknown) =>
          logger.warn({ reason: (error as Error).message }, `the mood snapshot was not saved: ${(error as Error).message}`),
      );
  }

  #fail(error: Error): void {
    this.#options.logger.fatal({ err: error }, `the shared mood cannot be followed: ${error.message}`);
    this.#stop.abort();
    this.#options.onFailure(error);
  }
}
