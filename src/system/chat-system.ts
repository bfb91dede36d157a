import { createActor } from 'xstate';
import type { SystemPhase } from '../bus/events.js';
import { inspectionFromEnv } from './inspect.js';
import { requestFlush } from '../actors/persistence-actor.js';
import { createSystemMachine, phaseOf } from '../actors/system-machine.js';
import type { SystemServices } from '../actors/system-setup.js';

export interface ChatSystem {
  /** Starts initialization (stage 1 in parallel, then stage 2), returns at once. */
  start(): void;
  /** Resolves with the phase once it is no longer 'initializing' ('ready' | 'keyMissing' | 'failed'). */
  settled(): Promise<SystemPhase>;
  /** The current phase. */
  readonly phase: SystemPhase;
  /** Stops the drift, writes the state to disk, stops the actors. Idempotent. The adapters' owner closes them after this. */
  stop(): Promise<void>;
}

/**
 * The chat service's actor system. It answers `status.requested` and `chat.requested` on the bus
 * from the moment it is created (the front desk), and starts its components on start().
 */
export function createChatSystem(deps: SystemServices): ChatSystem {
  const { bus, logger } = deps;
  const inspection = deps.inspect ? undefined : inspectionFromEnv(process.env, logger);
  const machine = createSystemMachine(deps);
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
      deps.exit(1);
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
        inspection?.stop();
      })()),
  };
}
