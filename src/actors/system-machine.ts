import type { SchedulerLike } from 'rxjs';
import { assign, fromPromise, setup, spawnChild, stopChild } from 'xstate';
import type { Bus } from '../bus/bus.js';
import type { ComponentName, SystemPhase } from '../bus/events.js';
import type { ChatConfig } from '../config/chat-config.js';
import type { DriftLease } from '../mood/drift-lease.js';
import type { MoodLedger } from '../mood/mood-ledger.js';
import type { ConversationStore } from '../sessions/conversation-store.js';
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import type { Random } from '../runtime/random.js';
import { defaultState, type EmotionState } from '../emotions/state.js';
import { sameProvider } from '../providers/validate-key.js';
import { avatarActor } from './avatar-actor.js';
import { chatActor } from './chat-actor.js';
import { dialogueActor, dialogueWatch } from './dialogue-actor.js';
import { driftActor } from './drift-actor.js';
import { emotionsActor } from './emotions-actor.js';
import { frontDesk } from './front-desk.js';
import { persistenceActor } from './persistence-actor.js';
import { sentimentActor } from './sentiment-actor.js';
import { loadMemoryStore, probeSentimentAnalyzer, validateKey, type MemoryStore } from './startup.js';

/** What the system machine is given; everything with a side effect is injected. */
export interface SystemInput {
  readonly bus: Bus;
  readonly config: ChatConfig;
  readonly clock: Clock;
  readonly random: Random;
  readonly logger: Logger;
  readonly exit: (code: number) => void;
  /** RxJS scheduler for the drift and for write coalescing; tests pass a virtual-time one. */
  readonly scheduler?: SchedulerLike;
  /** The dialogue client's retries before a failure counts (default 2). */
  readonly dialogueRetries?: number;
  /** The providers' HTTP client; defaults to the global fetch. */
  readonly fetch?: typeof fetch;
  /** The only way the emotions change; in-process or shared, the actors cannot tell. */
  readonly ledger: MoodLedger;
  /** Each visitor's conversation; in-process or shared, the actors cannot tell. */
  readonly conversations: ConversationStore;
  /** Only its holder drifts: always held in-process, one replica at a time when shared. */
  readonly driftLease: DriftLease;
  /** The state a shared ledger holds, to start from instead of the emotions file. */
  readonly sharedState?: EmotionState;
}

export interface SystemContext {
  readonly deps: SystemInput;
  readonly store: MemoryStore | undefined;
  readonly failure: { readonly component: ComponentName; readonly reason: string } | undefined;
  /** Stage 2 ran: the persistence actor is there to flush to. */
  readonly started: boolean;
}

export type SystemEvent = { type: 'START' } | { type: 'STOP_DRIFT' } | { type: 'PROVIDER_FAILED'; reason: string };

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
  if (sameProvider(config.primary, config.secondary) && config.secondary.model !== config.primary.model) models.push(config.secondary.model);
  return models;
}

/** Writes the state before a fatal exit; a write that hangs must not keep the process alive. */
const flushState = fromPromise<unknown, { bus: Bus }>(({ input }) =>
  input.bus.request({ type: 'persistence.flush.requested' }, ['persistence.saved', 'persistence.failed'], 5000),
);

/**
 * The system machine (seed 000, "States and transitions"). `initializing` waits for START, then
 * stage 1 starts the four critical components in parallel; stage 2 starts the chat object, the
 * dialogue, the avatar and the drift; then `ready`. A missing key is `keyMissing` (still serving
 * status). A failing component, or a dialogue that cannot reply (unless `ON_MODEL_FAILURE=stay`),
 * is `failed`: one detailed log line, the state flushed when there is one to flush, and exit status 1.
 */
export const systemMachine = setup({
  types: {
    context: {} as SystemContext,
    input: {} as SystemInput,
    events: {} as SystemEvent,
  },
  actors: {
    frontDesk,
    loadMemoryStore,
    probeSentimentAnalyzer,
    validateKey,
    persistence: persistenceActor,
    sentiment: sentimentActor,
    emotions: emotionsActor,
    chat: chatActor,
    dialogue: dialogueActor,
    avatar: avatarActor,
    drift: driftActor,
    dialogueWatch,
    flushState,
  },
  guards: {
    secondarySharesPrimary: ({ context }) => sameProvider(context.deps.config.primary, context.deps.config.secondary),
    anyKeyMissing: ({ context }) =>
      context.deps.config.primary.apiKey === undefined || context.deps.config.secondary.apiKey === undefined,
    componentsStarted: ({ context }) => context.started,
    exitsOnModelFailure: ({ context }) => context.deps.config.onModelFailure === 'exit',
  },
  actions: {
    storeMemoryStore: assign((_, store: MemoryStore) => ({ store })),
    announceLoaded: ({ context }, store: MemoryStore) => {
      context.deps.bus.publish({ type: 'emotions.loaded', ...store.state, source: store.source });
    },
    componentReady: ({ context }, params: { component: ComponentName; detail: string }) => {
      context.deps.logger.info(params, `${params.component} ready: ${params.detail}`);
      context.deps.bus.publish({ type: 'system.component.ready', ...params });
    },
    recordFailure: assign((_, failure: { component: ComponentName; error: unknown }) => ({
      failure: { component: failure.component, reason: reasonOf(failure.error) },
    })),
    markStarted: assign({ started: true }),
    announcePhase: ({ context }, params: { phase: SystemPhase }) => {
      context.deps.logger.info({ phase: params.phase }, `chat system ${params.phase}`);
      context.deps.bus.publish({ type: 'system.phase.changed', phase: params.phase });
    },
    announceFailure: ({ context }) => {
      const failure = failureOf(context);
      context.deps.bus.publish({ type: 'system.component.failed', ...failure });
      context.deps.bus.publish({ type: 'system.phase.changed', phase: 'failed', ...failure });
    },
    logFailure: ({ context }) => {
      const failure = failureOf(context);
      context.deps.logger.fatal(failure, `chat system failed: ${failure.component}: ${failure.reason}; exiting with status 1`);
    },
    explainKeyMissing: ({ context }) => {
      context.deps.logger.warn(
        'LLM_API_KEY is not set, so chat is off: set LLM_API_KEY (and LLM_BASE_URL and LLM_MODEL for a server that is not OpenAI) and start again; the page explains it at /error',
      );
    },
    exitProcess: ({ context }) => context.deps.exit(1),
    stopDrift: stopChild('drift'),
  },
}).createMachine({
  id: 'chatSystem',
  context: ({ input }) => ({ deps: input, store: undefined, failure: undefined, started: false }),
  entry: spawnChild('frontDesk', {
    id: 'frontDesk',
    systemId: 'frontDesk',
    input: ({ context }) => ({ bus: context.deps.bus, initial: defaultState(context.deps.clock.now().toISOString()) }),
  }),
  on: { STOP_DRIFT: { actions: 'stopDrift' } },
  initial: 'initializing',
  states: {
    initializing: {
      initial: 'waiting',
      states: {
        waiting: { on: { START: 'stage1' } },
        stage1: {
          type: 'parallel',
          states: {
            memoryStore: {
              initial: 'loading',
              states: {
                loading: {
                  invoke: {
                    src: 'loadMemoryStore',
                    input: ({ context }) => ({
                      file: context.deps.config.emotionsFile,
                      now: context.deps.clock.now().toISOString(),
                      shared: context.deps.sharedState,
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
                      actions: { type: 'recordFailure', params: ({ event }) => ({ component: 'memoryStore' as const, error: event.error }) },
                    },
                  },
                },
                done: { type: 'final' },
              },
            },
            sentimentAnalyzer: {
              initial: 'loading',
              states: {
                loading: {
                  invoke: {
                    src: 'probeSentimentAnalyzer',
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
                done: { type: 'final' },
              },
            },
            primaryProvider: {
              initial: 'checking',
              states: {
                checking: {
                  // A missing key on either side is the key-missing phase: no provider is called at all.
                  always: [{ guard: 'anyKeyMissing', target: 'missing' }, { target: 'validating' }],
                },
                validating: {
                  invoke: {
                    src: 'validateKey',
                    input: ({ context }) => ({
                      provider: context.deps.config.primary,
                      models: primaryModels(context.deps.config),
                      timeoutMs: context.deps.config.providerTimeoutMs,
                      logger: context.deps.logger,
                      fetch: context.deps.fetch,
                    }),
                    onDone: {
                      target: 'valid',
                      actions: {
                        type: 'componentReady',
                        params: ({ event }) => ({ component: 'primaryProvider' as const, detail: event.output }),
                      },
                    },
                    onError: {
                      target: '#chatSystem.failed',
                      actions: {
                        type: 'recordFailure',
                        params: ({ event }) => ({ component: 'primaryProvider' as const, error: event.error }),
                      },
                    },
                  },
                },
                valid: { type: 'final' },
                missing: { type: 'final' },
              },
            },
            secondaryProvider: {
              initial: 'checking',
              states: {
                checking: {
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
                validating: {
                  invoke: {
                    src: 'validateKey',
                    input: ({ context }) => ({
                      provider: context.deps.config.secondary,
                      models: [context.deps.config.secondary.model],
                      timeoutMs: context.deps.config.providerTimeoutMs,
                      logger: context.deps.logger,
                      fetch: context.deps.fetch,
                    }),
                    onDone: {
                      target: 'valid',
                      actions: {
                        type: 'componentReady',
                        params: ({ event }) => ({ component: 'secondaryProvider' as const, detail: event.output }),
                      },
                    },
                    onError: {
                      target: '#chatSystem.failed',
                      actions: {
                        type: 'recordFailure',
                        params: ({ event }) => ({ component: 'secondaryProvider' as const, error: event.error }),
                      },
                    },
                  },
                },
                valid: { type: 'final' },
                sharedWithPrimary: { type: 'final' },
                missing: { type: 'final' },
              },
            },
          },
          onDone: [{ guard: 'anyKeyMissing', target: '#chatSystem.keyMissing' }, { target: 'stage2' }],
        },
        stage2: {
          entry: [
            spawnChild('persistence', {
              id: 'persistence',
              systemId: 'persistence',
              input: ({ context }) => ({
                bus: context.deps.bus,
                file: context.deps.config.emotionsFile,
                initial: context.store!.state,
                logger: context.deps.logger,
                scheduler: context.deps.scheduler,
              }),
            }),
            spawnChild('sentiment', { id: 'sentiment', systemId: 'sentiment', input: ({ context }) => ({ bus: context.deps.bus }) }),
            spawnChild('emotions', {
              id: 'emotions',
              systemId: 'emotions',
              input: ({ context }) => ({ bus: context.deps.bus, initial: context.store!.state.emotions, ledger: context.deps.ledger }),
            }),
            spawnChild('chat', {
              id: 'chat',
              systemId: 'chat',
              input: ({ context }) => ({
                bus: context.deps.bus,
                ledger: context.deps.ledger,
                clock: context.deps.clock,
                onModelFailure: context.deps.config.onModelFailure,
              }),
            }),
            spawnChild('dialogue', {
              id: 'dialogue',
              systemId: 'dialogue',
              input: ({ context }) => ({
                bus: context.deps.bus,
                provider: context.deps.config.secondary,
                timeoutMs: context.deps.config.providerTimeoutMs,
                maxRetries: context.deps.dialogueRetries ?? 2,
                conversations: context.deps.conversations,
                fetch: context.deps.fetch,
              }),
            }),
            spawnChild('dialogueWatch', { id: 'dialogueWatch', input: ({ context }) => ({ bus: context.deps.bus }) }),
            spawnChild('avatar', {
              id: 'avatar',
              systemId: 'avatar',
              input: ({ context }) => ({ bus: context.deps.bus, initial: context.store!.state }),
            }),
            spawnChild('drift', {
              id: 'drift',
              systemId: 'drift',
              input: ({ context }) => ({
                ledger: context.deps.ledger,
                lease: context.deps.driftLease,
                clock: context.deps.clock,
                intervalMs: context.deps.config.driftIntervalMs,
                random: context.deps.random,
                scheduler: context.deps.scheduler,
              }),
            }),
            'markStarted',
          ],
          always: '#chatSystem.ready',
        },
      },
    },
    ready: {
      entry: { type: 'announcePhase', params: { phase: 'ready' } },
      on: {
        PROVIDER_FAILED: {
          guard: 'exitsOnModelFailure',
          target: 'failed',
          actions: {
            type: 'recordFailure',
            params: ({ event }) => ({ component: 'dialogue' as const, error: new Error(event.reason) }),
          },
        },
      },
    },
    keyMissing: {
      entry: [{ type: 'announcePhase', params: { phase: 'keyMissing' } }, 'explainKeyMissing'],
    },
    failed: {
      entry: ['announceFailure', 'logFailure'],
      initial: 'deciding',
      states: {
        deciding: { always: [{ guard: 'componentsStarted', target: 'flushing' }, { target: 'exiting' }] },
        flushing: {
          invoke: { src: 'flushState', input: ({ context }) => ({ bus: context.deps.bus }), onDone: 'exiting', onError: 'exiting' },
        },
        exiting: { type: 'final', entry: 'exitProcess' },
      },
    },
  },
});
