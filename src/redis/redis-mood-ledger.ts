import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import type { Emotions } from '../emotions/emotions.js';
import { journalEntry, type JournalEntry, type MoodExplanation } from '../emotions/mood-journal.js';
import { foldMoodChange, type EmotionState } from '../emotions/state.js';
import { loadMoodExplanation, recordJournalEntry } from './redis-mood-journal.js';
import type { HeldState, MoodChange, MoodDelivery, MoodLedger } from '../mood-ledger/mood-ledger.js';
import { systemClock, type Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import { DEFAULT_COMMAND_TIMEOUT_MS, unavailable, whenReady } from './connection.js';
import { RedisUnavailableError } from './errors.js';
import type { RedisKeys } from './keys.js';
import { catchUp, stepOf, streamMessages, type StreamNotice } from './mood-history.js';
import { decodeMoodEntry, encodeMoodChange, type StreamPosition } from './mood-entry.js';
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
// must never take effect later. The counter moves only once XADD has written the entry (a failed
// XADD, e.g. on a key that is not a stream, stops the script before it), so every number is an
// entry's. With no snapshot, Redis lost the shared mood: nothing is appended (0) until a replica
// has written its state back, so no answered chat lands in a stream that no state agrees with.
const APPEND = `
local now = redis.call('TIME')
if tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) > tonumber(ARGV[2]) then return false end
if redis.call('EXISTS', KEYS[3]) == 0 then return 0 end
local seq = tonumber(redis.call('GET', KEYS[2]) or '0') + 1
local id = redis.call('XADD', KEYS[1], '*', 'seq', seq, 'change', ARGV[1])
redis.call('SET', KEYS[2], seq)
return id`;

export interface RedisMoodLedgerOptions {
  /** Commands; shared with the other adapters and closed by its owner. */
  readonly client: Redis;
  /** A connection of the ledger's own for the blocking read, without a command timeout; closed with the ledger. */
  readonly reader: Redis;
  readonly keys: RedisKeys;
  readonly logger: Logger;
  /** The state to start from when Redis holds none yet (the first replica's emotions file, or the defaults); read only then. */
  readonly seed: () => Promise<EmotionState>;
  readonly clock?: Clock;
  /** The command connection's timeout: an append fails after it, and Redis refuses to run it after 3/4 of it. */
  readonly appendTimeoutMs?: number;
  readonly snapshotWindowMs?: number;
  readonly retentionMs?: number;
}

/**
 * The mood ledger shared by replicas: one Redis stream. `append` numbers and adds an entry;
 * every replica reads the stream from the last entry it delivered (XREAD BLOCK), so each entry is
 * delivered once, in stream order, also across reconnects. The ledger folds each delivered change
 * once and delivers it with the state after it (the mood's owner publishes that as `mood.changed`);
 * it saves that state, with the entry's position, as a snapshot (coalesced) that a starting replica
 * loads before reading the stream after it.
 *
 * Nothing in the stream stops a replica. Every entry is checked against the emotion model's schema
 * before it is delivered: one out of range or of another shape is refused and logged, on every
 * replica alike. Missing entries are logged as what they are (trimmed while this replica was cut
 * off: it takes the shared snapshot; lost from Redis: it goes on after them). When Redis comes back
 * without the shared mood (restarted without persistence, flushed), the replica writes back the
 * last state it holds; the one with the highest entry number wins, and every replica takes it.
 */
export class RedisMoodLedger implements MoodLedger {
  readonly #options: RedisMoodLedgerOptions;
  readonly #subscribers = new Set<MoodDelivery>();
  readonly #stop = new AbortController();
  /** The last entry delivered or refused: where the stream is read from. */
  #position: StreamPosition;
  /** The state after the last entry delivered, and that entry's position: what a snapshot saves. */
  #current: MoodSnapshot;
  /** The shared state when this replica joined: the system starts from it, not from its emotions file. */
  readonly held: HeldState;
  /** Redis may have lost the shared mood (a reconnect, an append refused for it): check before reading on. */
  #suspectLoss = false;
  #following = false;
  #snapshotTimer: NodeJS.Timeout | undefined;
  #saving: Promise<void> = Promise.resolve();
  #closing: Promise<void> | undefined;

  private constructor(options: RedisMoodLedgerOptions, start: MoodSnapshot) {
    this.#options = options;
    this.#current = start;
    this.#position = start.position;
    this.held = { state: start.state, where: 'shared' };
    // The reader connected before the ledger existed: any later `ready` is a reconnect, after
    // which Redis may be a Redis that restarted empty.
    options.reader.on('ready', () => (this.#suspectLoss = true));
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
      return new RedisMoodLedger(options, await catchUp(client, keys, snapshot!, noticeTo(options.logger)));
    } catch (error) {
      options.reader.disconnect();
      throw error;
    }
  }

  /** The replicas share the state Redis holds: the one the system loads is this ledger's own. */
  startFrom(): void {}

  /** The state after every change delivered so far. */
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
      id = await client.eval(APPEND, 3, keys.moodStream, keys.moodSequence, keys.moodSnapshot, encodeMoodChange(change), deadline);
    } catch (error) {
      throw unavailable('record the mood change', error);
    }
    if (id === null) throw new RedisUnavailableError('Redis is unavailable: the mood change reached Redis too late and was dropped');
    if (id === 0) {
      this.#suspectLoss = true;
      throw new RedisUnavailableError(
        'Redis is unavailable: it lost the shared mood, which the replicas are writing back; nothing changed',
      );
    }
  }

  subscribe(apply: MoodDelivery): () => void {
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
      clearTimeout(this.#snapshotTimer);
      this.#saveSnapshot();
      await this.#saving;
      this.#options.reader.disconnect();
    })();
    return this.#closing;
  }

  async #follow(): Promise<void> {
    const { reader, keys, logger } = this.#options;
    const signal = this.#stop.signal;
    let failing = false;
    while (!signal.aborted) {
      try {
        if (this.#suspectLoss) {
          this.#suspectLoss = false;
          await this.#reconcile().catch((error: unknown) => {
            this.#suspectLoss = true; // Redis away again: check once it is back
            throw error;
          });
        }
        const reply = (await reader.xread('COUNT', PAGE, 'BLOCK', BLOCK_MS, 'STREAMS', keys.moodStream, this.#position.id)) as
          | [string, [string, string[]][]][]
          | null;
        failing = false;
        if (signal.aborted) return;
        await this.#take(reply?.[0]?.[1] ?? []);
      } catch (error) {
        // A lost connection is logged by the connection and reconnects by itself; anything else
        // (the key is not a stream) is logged once here. Either way, read on from the same position.
        if (!failing && reader.status === 'ready' && !signal.aborted) {
          logger.error({ reason: (error as Error).message }, `cannot read the mood stream: ${(error as Error).message}`);
        }
        failing = true;
        await whenReady(reader, signal);
        await sleep(RETRY_MS, undefined, { signal }).catch(() => undefined);
      }
    }
  }

  /** Delivers a page of entries in order; stops early when the position moved elsewhere (a snapshot taken). */
  async #take(raws: readonly [string, string[]][]): Promise<void> {
    const { logger } = this.#options;
    for (const raw of raws) {
      const entry = decodeMoodEntry(raw, this.#position);
      const step = stepOf(this.#position, entry);
      if (step === 'behind') {
        logger.error({ entry: entry.position.id }, streamMessages.restarted(this.#position.seq, entry));
        this.#position = { id: entry.position.id, seq: this.#position.seq };
        this.#suspectLoss = true;
        continue;
      }
      if (step === 'ahead') {
        const from = this.#position.seq;
        if (await this.#reconcile()) {
          logger.warn({ from, to: entry.position.seq }, streamMessages.trimmed(from, entry.position.seq, this.#position.seq));
          return; // read on from the snapshot taken
        }
        logger.error({ from, to: entry.position.seq }, streamMessages.lost(from, entry.position.seq));
      }
      if ('refused' in entry) {
        logger.error({ entry: entry.position.id }, streamMessages.refused(entry));
        this.#position = entry.position;
      } else {
        this.#deliver(entry.position, entry.change);
      }
    }
  }

  /**
   * Compares this replica with what Redis holds. No snapshot, or an entry counter behind the
   * entries this replica has read, means Redis lost data: the replica writes its state back (the
   * highest entry number wins, and the counter follows it). A snapshot ahead of this replica is
   * taken, as a `snapshot` change, unless the entries it covers can still be read. Resolves whether one was taken.
   */
  async #reconcile(): Promise<boolean> {
    const { client, keys, logger, retentionMs = DEFAULT_STREAM_RETENTION_MS } = this.#options;
    let [snapshot, counter] = await Promise.all([loadMoodSnapshot(client, keys), client.get(keys.moodSequence)]);
    const read = this.#position.seq;
    if (snapshot === undefined || Number(counter ?? 0) < read) {
      const why =
        snapshot === undefined ? 'the shared snapshot is gone' : `its entries stop at ${Number(counter ?? 0)}, this replica read ${read}`;
      logger.error({ entry: this.#current.position.seq }, streamMessages.dataLost(why, this.#current.position.seq));
      await saveMoodSnapshot(client, keys, this.#current, retentionMs);
      snapshot = await loadMoodSnapshot(client, keys);
    }
    if (snapshot === undefined || snapshot.position.seq <= this.#position.seq) return false;
    // Only the reader was away (others appended and saved meanwhile): the entries are still there,
    // and each is delivered, as on every other replica, rather than a snapshot in their place.
    if (await this.#nextEntryKept()) return false;
    this.#deliver(snapshot.position, { kind: 'snapshot', state: snapshot.state, at: snapshot.state.lastUpdated });
    return true;
  }

  /** Whether the stream still holds the entry after this replica's position. */
  async #nextEntryKept(): Promise<boolean> {
    const { client, keys } = this.#options;
    const [raw] = (await client.xrange(keys.moodStream, `(${this.#position.id}`, '+', 'COUNT', 1)) as [string, string[]][];
    return raw !== undefined && stepOf(this.#position, decodeMoodEntry(raw, this.#position)) === 'next';
  }

  /** Folds the change (the one fold of it), delivers it with the state after it, then records both. */
  #deliver(position: StreamPosition, change: MoodChange): void {
    const before = this.#current.state;
    const state = foldMoodChange(before, change);
    this.#position = position;
    this.#current = { state, position };
    for (const apply of this.#subscribers) {
      try {
        apply(change, state);
      } catch (error) {
        this.#options.logger.error({ err: error, entry: position.id }, 'a mood ledger subscriber failed');
      }
    }
    this.#record(position.seq, journalEntry(before.emotions, change, state.emotions), state.emotions);
    this.#snapshotTimer ??= setTimeout(() => {
      this.#snapshotTimer = undefined;
      this.#saveSnapshot();
    }, this.#options.snapshotWindowMs ?? DEFAULT_SNAPSHOT_WINDOW_MS);
  }

  /** What moved the mood lately, from the journal every replica records: the same answer on each. */
  explain(): Promise<MoodExplanation> {
    return loadMoodExplanation(this.#options.client, this.#options.keys, this.#current.state.emotions);
  }

  /** Records a delivered change in the shared journal; a failure is logged (the answer falls back to this replica's own). */
  #record(seq: number, entry: JournalEntry, after: Emotions): void {
    const { client, keys, logger } = this.#options;
    recordJournalEntry(client, keys, seq, entry, after).catch((error: unknown) =>
      logger.warn({ reason: (error as Error).message }, `the mood journal entry ${seq} was not recorded: ${(error as Error).message}`),
    );
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
}

/** The stream's troubles at start, as log lines. */
function noticeTo(logger: Logger): StreamNotice {
  return (level, message) => logger[level](message);
}
