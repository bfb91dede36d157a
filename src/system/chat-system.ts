import type { SchedulerLike } from 'rxjs';
import { createActor } from 'xstate';
import type { Bus } from '../bus/bus.js';
import type { SystemPhase } from '../bus/events.js';
import type { ChatConfig } from '../config/chat-config.js';
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import type { Random } from '../runtime/random.js';
import { ALWAYS_HELD, type DriftLease } from '../mood-ledger/drift-lease.js';
import { LocalMoodLedger } from '../mood-ledger/local-mood-ledger.js';
import type { MoodLedger } from '../mood-ledger/mood-ledger.js';
import type { ConversationStore } from '../conversations/conversation-store.js';
import { MemoryConversationStore } from '../conversations/memory-conversation-store.js';
import { sessionBoundsOf } from '../conversations/session-bounds.js';
import { inspectionFromEnv, type Inspect } from './inspect.js';
import { requestFlush } from '../actors/persistence-actor.js';
import { createSystemMachine, phaseOf } from '../actors/system-machine.js';
import type { AppraisalModel } from '../appraisal/appraisal.js';

export interface ChatSystemDeps {
  bus: Bus;
  config: ChatConfig;
  clock: Clock;
  random: Random;
  logger: Logger;
  /** Ends the process; injected so tests can observe exit(1). Default process.exit. */
  exit?: (code: number) => void;
  /** Drives the drift and the write coalescing; tests pass a virtual-time scheduler. Default: real time. */
  scheduler?: SchedulerLike;
  /** The dialogue's retries before a reply counts as failed, each only while time is left. Default 2. */
  dialogueRetries?: number;
  /** The providers' HTTP client; defaults to the global fetch. Tests pass an in-process stand-in. */
  fetch?: typeof fetch;
  /** XState inspection; default from `XSTATE_INSPECT` (see inspect.ts), off when unset. */
  inspect?: Inspect;
  /** The only way the emotions change. Default: the in-process ledger. The system closes it on stop. */
  ledger?: MoodLedger;
  /** The visitors' conversations. Default: in process, bounded by MAX_SESSIONS and SESSION_IDLE_MS. Closed on stop. */
  conversations?: ConversationStore;
  /** Who drifts. Default: this process, always. Closed on stop (a shared lease is handed over). */
  driftLease?: DriftLease;
  /** The message appraisal's weights. Default: the shipped ones (models/appraisal.json). */
  loadAppraisalModel?: () => Promise<AppraisalModel>;
}

export interface ChatSystem {
  /** Starts initialization (stage 1 in parallel, then stage 2), returns at once. */
  start(): void;
  /** Resolves with the phase once it is no longer 'initializing' ('ready' | 'keyMissing' | 'failed'). */
  settled(): Promise<SystemPhase>;
  /** The current phase. */
  readonly phase: SystemPhase;
  /** Stops the drift, writes the state to disk, stops the actors, closes the ledger and the conversation store. Idempotent. */
  stop(): Promise<void>;
}

/**
 * The chat service's actor system. It answers `status.requested` and `chat.requested` on the bus
 * from the moment it is created (the front desk), and starts its components on start().
 */
export function createChatSystem(deps: ChatSystemDeps): ChatSystem {
  const { bus, logger } = deps;
  const inspection = deps.inspect ? undefined : inspectionFromEnv(process.env, logger);
  const ledger = deps.ledger ?? new LocalMoodLedger();
  const driftLease = deps.driftLease ?? ALWAYS_HELD;
  const conversations = deps.conversations ?? new MemoryConversationStore(sessionBoundsOf(deps.config, deps.clock));
  const machine = createSystemMachine({
    bus,
    config: deps.config,
    clock: deps.clock,
    random: deps.random,
    logger,
    exit: deps.exit ?? ((code) => process.exit(code)),
    scheduler: deps.scheduler,
    dialogueRetries: deps.dialogueRetries,
    fetch: deps.fetch,
    ledger,
    conversations,
    driftLease,
    loadAppraisalModel: deps.loadAppraisalModel,
  });
  const actor = createActor(machine, {
    inspect: deps.inspect ?? inspection?.inspect,
  });
  let phase: SystemPhase = 'initializing';
  let crashed = false;
  const waiting: ((phase: SystemPhase) => void)[] = [];
  const settle = (): void => {
    if (phase !== 'initializing') for (const resolve of waiting.splice(0)) resolve(phase);
  };
  actor.subscribe({
    next: (snapshot) => {
      phase = phaseOf(snapshot);
      settle();
    },
    // A bug inside the machine is a failed component like any other: one line, then exit 1.
    error: (error) => {
      crashed = true;
      phase = 'failed';
      logger.fatal({ err: error }, `chat system failed: system machine: ${(error as Error).message}; exiting with status 1`);
      settle();
      (deps.exit ?? process.exit)(1);
    },
  });
  actor.start();

  let stopping: Promise<void> | undefined;
  return {
    start: () => actor.send({ type: 'START' }),
    settled: () => (phase === 'initializing' ? new Promise<SystemPhase>((resolve) => waiting.push(resolve)) : Promise.resolve(phase)),
    get phase() {
      return phase;
    },
    stop: () =>
      (stopping ??= (async () => {
        actor.send({ type: 'STOP_DRIFT' });
        if (!crashed && actor.getSnapshot().context.started && phase !== 'failed') {
          await requestFlush(bus).catch((error: unknown) => logger.error({ err: error }, 'the emotions file was not written at shutdown'));
        }
        actor.stop();
        await Promise.all([ledger.close(), conversations.close(), driftLease.close()]).catch((error: unknown) =>
          logger.error({ err: error }, 'the mood ledger, the conversation store or the drift lease did not close cleanly'),
        );
        inspection?.stop();
      })()),
  };
}
