import type { SchedulerLike } from 'rxjs';
import { assign, fromPromise, setup, spawnChild, stopChild, type InspectionEvent, type Observer } from 'xstate';
import type { Bus } from '../bus/bus.js';
import type { ComponentName, SystemPhase } from '../bus/events.js';
import type { ChatConfig, ProviderConfig } from '../config/chat-config.js';
import type { DriftLease } from '../mood-ledger/drift-lease.js';
import type { MoodLedger } from '../mood-ledger/mood-ledger.js';
import type { ConversationStore } from '../conversations/conversation-store.js';
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import type { Random } from '../runtime/random.js';
import { defaultState } from '../emotions/state.js';
import type { AppraisalModel } from '../appraisal/appraisal.js';
import { loadShippedModel } from '../appraisal/shipped-model.js';
import { sameProvider } from '../providers/validate-key.js';
import { dialogueActor, dialogueWatch } from './dialogue-actor.js';
import { driftActor } from './drift-actor.js';
import { emotionsActor } from './emotions-actor.js';
import { sentimentActor } from './sentiment-actor.js';
import { frontDesk } from './front-desk.js';
import { historyActor } from './history-actor.js';
import { moodJournalActor } from './mood-journal-actor.js';
import { persistenceActor, requestFlush } from './persistence-actor.js';
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

/** Beyond the model's own deadline: the commit of a reply that came at the last moment, and the bus. */
const DRAIN_MARGIN_MS = 5000;

/** The phase a client sees for a machine state. */
export function phaseOf(snapshot: { matches(state: 'ready' | 'keyMissing' | 'failed'): boolean }): SystemPhase {
  if (snapshot.matches('ready')) return 'ready';
  if (snapshot.matches('keyMissing')) return 'keyMissing';
  if (snapshot.matches('failed')) return 'failed';
  return 'initializing';
}

/** Every way into `failed` records the failure first; the fallback only guards the types. */
function failureOf(context: SystemContext): NonNullable<SystemContext['failure']> {
  return context.failure ?? { component: 'chat', reason: 'unknown failure' };
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The models the primary provider's key check must find: the secondary's too when one validation serves both. */
function primaryModels(config: ChatConfig): string[] {
  const models = [config.primary.model];
  if (sameProvider(config.primary, config.secondary) && config.secondary.model !== config.primary.model)
    models.push(config.secondary.model);
  return models;
}

/**
 * The system machine (docs/specification.md#states). `initializing` waits for START, then
 * stage 1 starts the four critical components in parallel; stage 2 starts persistence, the mood's
 * owner (emotions), the sentiment actor (which reads each message), the dialogue (each chat's owner)
 * and the drift; then `ready`. A missing key is `keyMissing` (still serving
 * status). A failing component, or a dialogue that cannot reply (unless `ON_MODEL_FAILURE=stay`),
 * is `failed`: one detailed log line, the state flushed when there is one to flush, and exit status 1.
 *
 * Built per system, so that its implementations capture `services` while its context stays plain
 * data; the definition itself (states, transitions, names) is the same for every services object,
 * which is what `hub machine` prints (see machine-json.ts).
 */
export function createSystemMachine(services: SystemServices) {
  /**
   * The appraisal's weights once stage 1 has loaded and probed them, for the sentiment actor of
   * stage 2. Kept here rather than in the context: the context is plain data that the inspector
   * shows, and the weights are some 350,000 numbers.
   */
  let appraisalModel: AppraisalModel | undefined;
  /** Writes the state before a fatal exit; a write that hangs must not keep the process alive. */
  const flushState = fromPromise<unknown>(() => requestFlush(services.bus));
  /**
   * Lets the chats in flight end before a fatal exit, within one chat's deadline (the model's time
   * and the commit's); the dialogue refuses those still going then. The bus request's own bound
   * is a safety net: a drain that never answers must not keep the process alive.
   */
  const drainChats = fromPromise<unknown>(() => {
    const withinMs = services.config.providerTimeoutMs + DRAIN_MARGIN_MS;
    return services.bus.request({ type: 'chat.drain.requested', withinMs }, 'chat.drained', withinMs + DRAIN_MARGIN_MS);
  });
  /**
   * The state that checks one provider's key (the primary's, or the secondary's when it is another
   * provider). The provider is read when the state runs: `hub machine` builds the machine without services.
   */
  const validatingKey = (
    component: 'primaryProvider' | 'secondaryProvider',
    provider: () => ProviderConfig,
    models: () => readonly string[],
  ) => ({
    description: "Lists the provider's models with the key, within LLM_TIMEOUT_MS; 429 counts as valid.",
    invoke: {
      src: 'validateKey' as const,
      input: () => ({
        provider: provider(),
        models: models(),
        timeoutMs: services.config.providerTimeoutMs,
        logger: services.logger,
        fetch: services.fetch,
        checkedBefore: services.config.keyCheckedBefore,
      }),
      onDone: {
        target: 'valid',
        actions: {
          type: 'componentReady' as const,
          params: ({ event }: { event: { output: string } }) => ({ component, detail: event.output }),
        },
      },
      onError: {
        target: '#chatSystem.failed',
        actions: {
          type: 'recordFailure' as const,
          params: ({ event }: { event: { error: unknown } }) => ({ component, error: event.error }),
        },
      },
    },
  });
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
      drainChats,
      flushState,
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
        services.logger.info(params, `${params.component} ready: ${params.detail}`);
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
        services.logger.fatal(failure, `chat system failed: ${failure.component}: ${failure.reason}; exiting with status 1${after}`);
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
  }).createMachine({
    id: 'chatSystem',
    description: 'The chat system: its two-stage startup, then ready, keyMissing or failed.',
    context: { store: undefined, failure: undefined, started: false },
    entry: [
      spawnChild('frontDesk', {
        id: 'frontDesk',
        systemId: 'frontDesk',
        input: () => ({ bus: services.bus, initial: defaultState(services.clock.now().toISOString()) }),
      }),
      // The visitor's history is read and forgotten in every phase: the store is there from the start.
      spawnChild('history', {
        id: 'history',
        systemId: 'history',
        input: () => ({ bus: services.bus, conversations: services.conversations }),
      }),
      // What moved the mood is answered in every phase, like the mood itself.
      spawnChild('moodJournal', {
        id: 'moodJournal',
        systemId: 'moodJournal',
        input: () => ({
          bus: services.bus,
          emotions: defaultState(services.clock.now().toISOString()).emotions,
          ledger: services.ledger,
          logger: services.logger,
        }),
      }),
    ],
    on: { STOP_DRIFT: { actions: 'stopDrift' } },
    initial: 'initializing',
    states: {
      initializing: {
        description: 'Startup, in two stages: nothing but status is served until a later phase.',
        initial: 'waiting',
        states: {
          waiting: {
            description: 'Created: status is answered, chat is refused as initializing; waits for START.',
            on: { START: 'stage1' },
          },
          stage1: {
            description: 'Stage 1: the four critical components start in parallel.',
            type: 'parallel',
            states: {
              memoryStore: {
                description:
                  "Finds the state to start from: the ledger's lasting copy (the embedded store's, the replicas'), else the emotions file.",
                initial: 'loading',
                states: {
                  loading: {
                    description: 'Working; its failure fails the system.',
                    invoke: {
                      src: 'loadMemoryStore',
                      input: () => ({
                        file: services.config.emotionsFile,
                        now: services.clock.now().toISOString(),
                        ledger: services.ledger,
                      }),
                      onDone: {
                        target: 'done',
                        actions: [
                          { type: 'storeMemoryStore', params: ({ event }) => event.output },
                          { type: 'announceLoaded', params: ({ event }) => event.output },
                          {
                            type: 'componentReady',
                            params: ({ event }) => ({
                              component: 'memoryStore' as const,
                              detail: `emotions from ${event.output.source}`,
                            }),
                          },
                        ],
                      },
                      onError: {
                        target: '#chatSystem.failed',
                        actions: {
                          type: 'recordFailure',
                          params: ({ event }) => ({ component: 'memoryStore' as const, error: event.error }),
                        },
                      },
                    },
                  },
                  done: { description: 'Ready.', type: 'final' },
                },
              },
              sentimentAnalyzer: {
                description: "Loads the AFINN lexicon and the appraisal's weights, and reads known phrases.",
                initial: 'loading',
                states: {
                  loading: {
                    description: 'Working; its failure fails the system.',
                    invoke: {
                      src: 'probeSentimentAnalyzer',
                      input: () => ({
                        load: services.loadAppraisalModel ?? loadShippedModel,
                        keep: (model: AppraisalModel) => {
                          appraisalModel = model;
                        },
                      }),
                      onDone: {
                        target: 'done',
                        actions: {
                          type: 'componentReady',
                          params: ({ event }) => ({ component: 'sentimentAnalyzer' as const, detail: event.output }),
                        },
                      },
                      onError: {
                        target: '#chatSystem.failed',
                        actions: {
                          type: 'recordFailure',
                          params: ({ event }) => ({ component: 'sentimentAnalyzer' as const, error: event.error }),
                        },
                      },
                    },
                  },
                  done: { description: 'Ready.', type: 'final' },
                },
              },
              primaryProvider: {
                description: "Validates the primary provider's key by listing its models, once.",
                initial: 'checking',
                states: {
                  checking: {
                    description: 'Decides at once: a missing key, a shared validation, or a call to make.',
                    // A missing key on either side is the key-missing phase: no provider is called at all.
                    always: [{ guard: 'anyKeyMissing', target: 'missing' }, { target: 'validating' }],
                  },
                  validating: validatingKey(
                    'primaryProvider',
                    () => services.config.primary,
                    () => primaryModels(services.config),
                  ),
                  valid: { description: 'The key works.', type: 'final' },
                  missing: { description: 'A key is absent: the system goes to keyMissing.', type: 'final' },
                },
              },
              secondaryProvider: {
                description: "Validates the secondary provider's key, unless the primary's validation serves both.",
                initial: 'checking',
                states: {
                  checking: {
                    description: 'Decides at once: a missing key, a shared validation, or a call to make.',
                    always: [
                      { guard: 'anyKeyMissing', target: 'missing' },
                      {
                        guard: 'secondarySharesPrimary',
                        target: 'sharedWithPrimary',
                        actions: {
                          type: 'componentReady',
                          params: { component: 'secondaryProvider', detail: 'same provider as the primary: one validation serves both' },
                        },
                      },
                      { target: 'validating' },
                    ],
                  },
                  validating: validatingKey(
                    'secondaryProvider',
                    () => services.config.secondary,
                    () => [services.config.secondary.model],
                  ),
                  valid: { description: 'The key works.', type: 'final' },
                  sharedWithPrimary: { description: 'Same provider as the primary: one validation serves both.', type: 'final' },
                  missing: { description: 'A key is absent: the system goes to keyMissing.', type: 'final' },
                },
              },
            },
            onDone: [{ guard: 'anyKeyMissing', target: '#chatSystem.keyMissing' }, { target: 'stage2' }],
          },
          stage2: {
            description: 'Stage 2: the actors start (persistence, emotions, sentiment, dialogue, drift).',
            entry: [
              spawnChild('persistence', {
                id: 'persistence',
                systemId: 'persistence',
                input: ({ context }) => ({
                  bus: services.bus,
                  file: services.config.emotionsFile,
                  initial: context.store!.state,
                  logger: services.logger,
                  scheduler: services.scheduler,
                }),
              }),
              spawnChild('emotions', {
                id: 'emotions',
                systemId: 'emotions',
                input: () => ({ bus: services.bus, ledger: services.ledger }),
              }),
              spawnChild('sentiment', {
                id: 'sentiment',
                systemId: 'sentiment',
                input: ({ context }) => ({ bus: services.bus, emotions: context.store!.state.emotions, model: appraisalModel! }),
              }),
              spawnChild('dialogue', {
                id: 'dialogue',
                systemId: 'dialogue',
                input: ({ context }) => ({
                  bus: services.bus,
                  ledger: services.ledger,
                  conversations: services.conversations,
                  provider: services.config.secondary,
                  timeoutMs: services.config.providerTimeoutMs,
                  maxRetries: services.dialogueRetries ?? 2,
                  onModelFailure: services.config.onModelFailure,
                  initial: context.store!.state,
                  clock: services.clock,
                  fetch: services.fetch,
                }),
              }),
              spawnChild('dialogueWatch', { id: 'dialogueWatch', input: () => ({ bus: services.bus }) }),
              spawnChild('drift', {
                id: 'drift',
                systemId: 'drift',
                input: () => ({
                  ledger: services.ledger,
                  lease: services.driftLease,
                  clock: services.clock,
                  intervalMs: services.config.driftIntervalMs,
                  random: services.random,
                  scheduler: services.scheduler,
                }),
              }),
              'markStarted',
            ],
            always: '#chatSystem.ready',
          },
        },
      },
      ready: {
        description: 'Serving chat; a dialogue that cannot reply ends the process unless ON_MODEL_FAILURE=stay.',
        entry: { type: 'announcePhase', params: { phase: 'ready' } },
        on: {
          PROVIDER_FAILED: [
            {
              guard: 'exitsOnModelFailure',
              target: 'failed',
              actions: {
                type: 'recordFailure',
                params: ({ event }) => ({ component: 'dialogue' as const, error: new Error(event.reason) }),
              },
            },
            { actions: { type: 'warnModelFailure', params: ({ event }) => ({ reason: event.reason }) } },
          ],
        },
      },
      keyMissing: {
        description: 'No LLM_API_KEY: status is served from the loaded state, chat answers missing_llm_key, no drift.',
        // What to set is said by the service, last before "ready" (src/service/startup-warnings.ts).
        entry: [{ type: 'announcePhase', params: { phase: 'keyMissing' } }],
      },
      failed: {
        description:
          'A component failed: one log line, new chats refused, the chats in flight let end, the state flushed if the actors ran, exit status 1.',
        entry: ['announceFailure', 'stopDrift', 'logFailure'],
        initial: 'deciding',
        states: {
          deciding: {
            description: 'Drains and flushes first when the actors ran, then exits.',
            always: [
              { guard: 'componentsStarted', target: 'draining' },
              { target: 'exiting', actions: 'sealLedger' },
            ],
          },
          draining: {
            description: 'New chats get 503; the chats in flight run to their end, within one chat deadline.',
            invoke: {
              src: 'drainChats',
              onDone: { target: 'flushing', actions: 'sealLedger' },
              onError: { target: 'flushing', actions: 'sealLedger' },
            },
          },
          flushing: {
            description: 'Asks the persistence actor to write the state (at most 5 s).',
            invoke: { src: 'flushState', onDone: 'exiting', onError: 'exiting' },
          },
          exiting: { description: 'Exits with status 1.', type: 'final', entry: 'exitProcess' },
        },
      },
    },
  });
}

/**
 * The system machine with no services, for printing its definition (`hub machine`): building it
 * touches none, and running it is a bug that says so.
 */
export function printableSystemMachine() {
  const noServices = new Proxy({} as SystemServices, {
    get: (_, name) => {
      throw new Error(`the printed system machine has no services (asked for ${String(name)}): run it through createChatSystem`);
    },
  });
  return createSystemMachine(noServices);
}
