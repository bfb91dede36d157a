import type { SystemSetup } from './system-setup.js';

/**
 * The system's `failed` state: one log line, new chats refused, the chats in flight let end (the
 * drain, drain.ts), the state flushed if the actors ran, then exit status 1.
 */
export const failedState = (machine: SystemSetup) =>
  machine.createStateConfig({
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
  });
