import { settings } from '@oclif/core';
import { runCommand } from '@oclif/test';
import t from 'tap';
import { createActor, createMachine, type AnyStateMachine, type AnyStateNode } from 'xstate';
import { createSystemMachine } from '../../src/actors/system-machine.js';
import { Bus } from '../../src/bus/bus.js';
import { loadChatConfig } from '../../src/config/chat-config.js';
import { ALWAYS_HELD } from '../../src/mood-ledger/drift-lease.js';
import { LocalMoodLedger } from '../../src/mood-ledger/local-mood-ledger.js';
import { fixedClock } from '../../src/runtime/clock.js';
import { createLogger } from '../../src/runtime/logger.js';
import { MemoryConversationStore } from '../../src/conversations/memory-conversation-store.js';
import { ROOT } from '../support/built-cli.js';
import { DEFAULT_MAX_SESSION_BYTES } from '../../src/config/defaults.js';

settings.enableAutoTranspile = false;
t.afterEach(() => {
  process.exitCode = undefined;
});

/** The machine the chat service really runs, with real services (it is never started here). */
function realMachine(): AnyStateMachine {
  const clock = fixedClock('2026-11-21T10:00:00.000Z');
  return createSystemMachine({
    bus: new Bus(),
    config: loadChatConfig({ LLM_API_KEY: 'sk-test' }),
    clock,
    random: () => 0.5,
    logger: createLogger({ destination: { write: () => undefined } }),
    exit: () => undefined,
    ledger: new LocalMoodLedger(),
    conversations: new MemoryConversationStore({ maxSessions: 10, idleMs: 60_000, maxBytes: DEFAULT_MAX_SESSION_BYTES, clock }),
    driftLease: ALWAYS_HELD,
  });
}

function nodesOf(node: AnyStateNode): AnyStateNode[] {
  return [node, ...Object.values(node.states).flatMap(nodesOf)];
}

/** Every transition as `source --event [guard]--> targets`, sorted, so two machines compare as sets. */
function transitionsOf(machine: AnyStateMachine): string[] {
  return nodesOf(machine.root)
    .flatMap((node) => [...[...node.transitions.values()].flat(), ...(node.always ?? [])])
    .map((transition) => {
      const guard =
        transition.guard === undefined
          ? ''
          : ` [${typeof transition.guard === 'string' ? transition.guard : (transition.guard as { type: string }).type}]`;
      const targets = (transition.target ?? []).map((node: AnyStateNode) => node.id).join(',');
      return `${transition.source.id} --${transition.eventType || 'always'}${guard}--> ${targets}`;
    })
    .sort();
}

function stateIdsOf(machine: AnyStateMachine): string[] {
  return nodesOf(machine.root)
    .map((node) => `${node.id} (${node.type})`)
    .sort();
}

t.test("hub machine prints JSON that createMachine accepts and runs, with the real machine's states and transitions", async (t) => {
  const { stdout, error } = await runCommand(['machine'], { root: ROOT });
  t.equal(error, undefined);
  const json = JSON.parse(stdout) as { id: string; states: Record<string, { description?: string }> };
  t.equal(json.id, 'chatSystem');

  const printed = createMachine(json as never);
  const actor = createActor(printed).start();
  t.same(actor.getSnapshot().value, { initializing: 'waiting' }, 'starts in initializing.waiting');
  t.equal(actor.getSnapshot().status, 'active');
  actor.stop();

  const real = realMachine();
  t.same(stateIdsOf(printed), stateIdsOf(real), 'the same states, of the same types');
  t.same(transitionsOf(printed), transitionsOf(real), 'the same transitions: event (and guard) to targets');
  t.ok(transitionsOf(real).includes('chatSystem.ready --PROVIDER_FAILED [exitsOnModelFailure]--> chatSystem.failed'));
  t.ok(transitionsOf(real).includes('chatSystem.initializing.waiting --START--> chatSystem.initializing.stage1'));
});

t.test('every state of the system machine has a description', async (t) => {
  const missing = nodesOf(realMachine().root)
    .filter((node) => !node.description)
    .map((node) => node.id);
  t.same(missing, []);
});

t.test("the machine's context is plain data: no services in it", async (t) => {
  const actor = createActor(realMachine());
  const context = actor.getSnapshot().context as Record<string, unknown>;
  t.same(context, { store: undefined, failure: undefined, started: false });
});
