import { spawnChild } from 'xstate';
import type { SystemPhase } from '../bus/events.js';
import { defaultState } from '../emotions/state.js';
import { failedState } from './failed-state.js';
import { initializingState } from './startup-states.js';
import { systemSetup, type SystemServices } from './system-setup.js';

/** The phase a client sees for a machine state. */
export function phaseOf(snapshot: { matches(state: 'ready' | 'keyMissing' | 'failed'): boolean }): SystemPhase {
  if (snapshot.matches('ready')) return 'ready';
  if (snapshot.matches('keyMissing')) return 'keyMissing';
  if (snapshot.matches('failed')) return 'failed';
  return 'initializing';
}

/**
 * The system machine (docs/specification.md#states). `initializing` waits for START, then
 * stage 1 starts the four critical components in parallel; stage 2 starts persistence, the mood's
 * owner (emotions), the sentiment actor (which reads each message), the dialogue (each chat's owner)
 * and the drift; then `ready` (startup-states.ts). A missing key is `keyMissing` (still serving
 * status). A failing component, or a dialogue that cannot reply (unless `ON_MODEL_FAILURE=stay`),
 * is `failed`: one detailed log line, the state flushed when there is one to flush, and exit status 1
 * (failed-state.ts). The actions, guards and actors the states name are in system-setup.ts.
 *
 * Built per system, so that its implementations capture `services` while its context stays plain
 * data; the definition itself (states, transitions, names) is the same for every services object,
 * which is what `hub machine` prints (see machine-json.ts).
 */
export function createSystemMachine(services: SystemServices) {
  const machine = systemSetup(services);
  return machine.createMachine({
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
      initializing: initializingState(machine, services),
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
      failed: failedState(machine),
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
