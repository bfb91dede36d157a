import type { SchedulerLike } from 'rxjs';
import { assign, setup, stopChild, type InspectionEvent, type Observer } from 'xstate';
import type { Bus } from '../bus/bus.js';
import type { ComponentName, SystemPhase } from '../bus/events.js';
import { COMPONENT_WORDS } from '../bus/component-words.js';
import type { ChatConfig } from '../config/chat-config.js';
import type { DriftLease } from '../mood-ledger/drift-lease.js';
import type { MoodLedger } from '../mood-ledger/mood-ledger.js';
import type { ConversationStore } from '../conversations/conversation-store.js';
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import type { Random } from '../runtime/random.js';
import type { AppraisalModel } from '../appraisal/appraisal.js';
import { sameProvider } from '../providers/validate-key.js';
import { dialogueActor, dialogueWatch } from './dialogue-actor.js';
import { drainChats, flushState } from './drain.js';
import { driftActor } from './drift-actor.js';
import { emotionsActor } from './emotions-actor.js';
import { frontDesk } from './front-desk.js';
import { historyActor } from './history-actor.js';
import { moodJournalActor } from './mood-journal-actor.js';
import { persistenceActor } from './persistence-actor.js';
import { sentimentActor } from './sentiment-actor.js';
import { loadMemoryStore, probeSentimentAnalyzer, validateKey, type MemoryStore } from './startup.js';

/**
 * What the actor system is built from (`createChatSystem`, and this machine's actions, guards and
 * actors): everything with a side effect is injected, the adapters as `adapters()` picked them.
 * They are captured by the implementations, never put in the context.
 */
export interface SystemServices {
  readonly bus: Bus;
  readonly config: ChatConfig;
  readonly clock: Clock;
  readonly random: Random;
  readonly logger: Logger;
  readonly exit: (code: number) => void;
  /** RxJS scheduler for the drift and for write coalescing; tests pass a virtual-time one. */
  readonly scheduler?: SchedulerLike;
  /** The dialogue's retries before a failure counts (default 2), each only while time is left. */
  readonly dialogueRetries?: number;
  /** The providers' HTTP client; defaults to the global fetch. */
  readonly fetch?: typeof fetch;
  /** The only way the emotions change; in-process or shared, the actors cannot tell. */
  readonly ledger: MoodLedger;
  /** Each visitor's conversation; in-process or shared, the actors cannot tell. */
  readonly conversations: ConversationStore;
  /** Only its holder drifts: always held in-process, one replica at a time when shared. */
  readonly driftLease: DriftLease;
  /** The message appraisal's weights; defaults to the shipped ones (models/appraisal.json). */
  readonly loadAppraisalModel?: () => Promise<AppraisalModel>;
  /** XState inspection of the whole system; default from `XSTATE_INSPECT` (src/system/inspect.ts), off when unset. */
  readonly inspect?: Observer<InspectionEvent> | ((event: InspectionEvent) => void);
}

/** Plain data only (what the inspector and a snapshot show): the services are not in it. */
export interface SystemContext {
  readonly store: MemoryStore | undefined;
  readonly failure: { readonly component: ComponentName; readonly reason: string } | undefined;
  /** Stage 2 ran: the persistence actor is there to flush to. */
  readonly started: boolean;
}

export type SystemEvent = { type: 'START' } | { type: 'STOP_DRIFT' } | { type: 'PROVIDER_FAILED'; reason: string };

/** Every way into `failed` records the failure first; the fallback only guards the types. */
function failureOf(context: SystemContext): NonNullable<SystemContext['failure']> {
  return context.failure ?? { component: 'chat', reason: 'unknown failure' };
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The system machine's implementations by name (its actors, guards and actions), each capturing
 * `services`; the states that name them are in system-machine.ts, startup-states.ts and failed-state.ts.
 */
export function systemSetup(services: SystemServices) {
  return setup({
    types: {
      context: {} as SystemContext,
      events: {} as SystemEvent,
    },
    actors: {
      frontDesk,
      history: historyActor,
      moodJournal: moodJournalActor,
      loadMemoryStore,
      probeSentimentAnalyzer,
      validateKey,
      persistence: persistenceActor,
      emotions: emotionsActor,
      sentiment: sentimentActor,
      dialogue: dialogueActor,
      drift: driftActor,
      dialogueWatch,
      drainChats: drainChats(services),
      flushState: flushState(services),
    },
    guards: {
      secondarySharesPrimary: () => sameProvider(services.config.primary, services.config.secondary),
      anyKeyMissing: () => services.config.primary.apiKey === undefined || services.config.secondary.apiKey === undefined,
      componentsStarted: ({ context }) => context.started,
      exitsOnModelFailure: () => services.config.onModelFailure === 'exit',
    },
    actions: {
      storeMemoryStore: assign((_, store: MemoryStore) => ({ store })),
      announceLoaded: (_, store: MemoryStore) => {
        services.bus.publish({ type: 'emotions.loaded', ...store.state, source: store.source });
      },
      componentReady: (_, params: { component: ComponentName; detail: string }) => {
        services.logger.info(params, `${COMPONENT_WORDS[params.component]}: ${params.detail}`);
        services.bus.publish({ type: 'system.component.ready', ...params });
      },
      recordFailure: assign((_, failure: { component: ComponentName; error: unknown }) => ({
        failure: { component: failure.component, reason: reasonOf(failure.error) },
      })),
      markStarted: assign({ started: true }),
      announcePhase: (_, params: { phase: SystemPhase }) => {
        services.logger.info({ phase: params.phase }, `chat system ${params.phase}`);
        services.bus.publish({ type: 'system.phase.changed', phase: params.phase });
      },
      announceFailure: ({ context }) => {
        const failure = failureOf(context);
        services.bus.publish({ type: 'system.component.failed', ...failure });
        services.bus.publish({ type: 'system.phase.changed', phase: 'failed', ...failure });
      },
      logFailure: ({ context }) => {
        const failure = failureOf(context);
        // Chats can be in flight only once the actors have started.
        const after = context.started ? ' once the chats in flight have ended' : '';
        services.logger.fatal(
          failure,
          `chat system failed: ${COMPONENT_WORDS[failure.component]}: ${failure.reason}; exiting with status 1${after}`,
        );
      },
      // A warning, so that it shows whatever DEBUG says: with ON_MODEL_FAILURE=stay nothing else
      // tells the operator what the provider answered.
      warnModelFailure: (_, params: { reason: string }) => {
        services.logger.warn(
          { component: 'dialogue', reason: params.reason },
          `a chat failed: ${params.reason}; it changed nothing and the service stays ready (ON_MODEL_FAILURE=stay)`,
        );
      },
      // Nothing commits once the system has failed: no chat still on its way, no drift tick after the flush.
      sealLedger: () => {
        services.ledger.close().catch((error: unknown) => services.logger.warn({ err: error }, 'the mood ledger did not close cleanly'));
      },
      exitProcess: () => services.exit(1),
      stopDrift: stopChild('drift'),
    },
  });
}

/** What the states are written against: `createStateConfig` checks them with the names above. */
export type SystemSetup = ReturnType<typeof systemSetup>;
