import { spawnChild } from 'xstate';
import type { ChatConfig, ProviderConfig } from '../config/chat-config.js';
import type { AppraisalModel } from '../appraisal/appraisal.js';
import { loadShippedModel } from '../appraisal/shipped-model.js';
import { configuredAppraisalReader } from '../providers/appraisal-reader.js';
import { sameProvider } from '../providers/validate-key.js';
import { onceAWhile } from '../runtime/once-a-while.js';
import type { SecondReader } from './dialogue-actor.js';
import type { SystemServices, SystemSetup } from './system-setup.js';

/** The models the primary provider's key check must find: the secondary's too when one validation serves both. */
function primaryModels(config: ChatConfig): string[] {
  const models = [config.primary.model];
  if (sameProvider(config.primary, config.secondary) && config.secondary.model !== config.primary.model)
    models.push(config.secondary.model);
  return models;
}

/**
 * The system's `initializing` state: it waits for START, then stage 1 starts the four critical
 * components in parallel (startup.ts), and stage 2 the actors that serve chat. The services are
 * read only when a state runs: `hub machine` builds the machine without them.
 */
export function initializingState(machine: SystemSetup, services: SystemServices) {
  /**
   * The appraisal's weights once stage 1 has loaded and probed them, for the sentiment actor of
   * stage 2. Kept here rather than in the context: the context is plain data that the inspector
   * shows, and the weights are some 350,000 numbers.
   */
  let appraisalModel: AppraisalModel | undefined;
  /**
   * The state that checks one provider's key (the primary's, or the secondary's when it is another
   * provider). The provider is read when the state runs: `hub machine` builds the machine without services.
   */
  const validatingKey = (
    component: 'primaryProvider' | 'secondaryProvider',
    provider: () => ProviderConfig,
    models: () => readonly string[],
  ) =>
    machine.createStateConfig({
      description: "Lists the provider's models with the key, within LLM_TIMEOUT_MS; 429 counts as valid.",
      invoke: {
        src: 'validateKey',
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
          actions: { type: 'componentReady', params: ({ event }) => ({ component, detail: event.output }) },
        },
        onError: {
          target: '#chatSystem.failed',
          actions: { type: 'recordFailure', params: ({ event }) => ({ component, error: event.error }) },
        },
      },
    });

  const stage1 = machine.createStateConfig({
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
  });

  const stage2 = machine.createStateConfig({
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
          ...secondReaderOf(services),
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
  });

  return machine.createStateConfig({
    description: 'Startup, in two stages: nothing but status is served until a later phase.',
    initial: 'waiting',
    states: {
      waiting: {
        description: 'Created: status is answered, chat is refused as initializing; waits for START.',
        on: { START: 'stage1' },
      },
      stage1,
      stage2,
    },
  });
}

/** `APPRAISAL=model`: the chat model on the `LLM_*` provider reads each message too; its failures warn once a minute. */
function secondReaderOf(services: SystemServices): { secondReader?: SecondReader } {
  const { appraisal } = services.config;
  if (appraisal?.source !== 'model') return {};
  return {
    secondReader: {
      reader: configuredAppraisalReader(services.config, services.fetch),
      waitMs: appraisal.waitMs,
      warn: onceAWhile(services.clock, 60_000, (line) => services.logger.warn(line)),
    },
  };
}
