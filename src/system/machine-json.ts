import type { AnyStateMachine, AnyStateNode } from 'xstate';

/**
 * A machine's definition as the JSON config `createMachine(json)` accepts: what `hub machine` prints
 * for Stately's visualizer. XState's own `machine.toJSON()` is a dump of the resolved state nodes
 * (`initial` is a transition object, targets are node arrays), which `createMachine` refuses with
 * 'Initial state node "[object Object]" not found'. Implementations are named, not serialised:
 * actions, guards and actors by their names, built-in spawns as `spawnChild(<src>)`.
 */
export type MachineJson = { readonly id: string } & StateJson;

export interface StateJson {
  description?: string;
  type?: 'parallel' | 'final' | 'history';
  initial?: string;
  entry?: string[];
  exit?: string[];
  invoke?: InvokeJson[];
  on?: Record<string, TransitionJson[]>;
  always?: TransitionJson[];
  onDone?: TransitionJson[];
  states?: Record<string, StateJson>;
}

export interface InvokeJson {
  id: string;
  src: string;
  onDone?: TransitionJson[];
  onError?: TransitionJson[];
}

export interface TransitionJson {
  /** `#`-prefixed state ids; absent for a transition that only runs actions. */
  target?: string[];
  guard?: string;
  actions?: string[];
  reenter?: boolean;
}

/** The structure of a transition as XState resolves it (the fields read here). */
interface ResolvedTransition {
  readonly target?: readonly AnyStateNode[];
  readonly guard?: unknown;
  readonly actions: readonly unknown[];
  readonly reenter: boolean;
}

export function machineJson(machine: AnyStateMachine): MachineJson {
  return { id: machine.id, ...stateJson(machine.root) };
}

function stateJson(node: AnyStateNode): StateJson {
  const json: StateJson = {};
  if (node.description) json.description = node.description;
  if (node.type === 'parallel' || node.type === 'final' || node.type === 'history') json.type = node.type;
  if (node.type === 'compound') json.initial = node.initial.target[0]!.key;
  if (node.entry.length > 0) json.entry = node.entry.map(nameOf);
  if (node.exit.length > 0) json.exit = node.exit.map(nameOf);

  const byEvent = new Map(node.transitions as Map<string, ResolvedTransition[]>);
  if (node.invoke.length > 0) {
    json.invoke = node.invoke.map((invoke) => {
      const done = take(byEvent, `xstate.done.actor.${invoke.id}`);
      const error = take(byEvent, `xstate.error.actor.${invoke.id}`);
      return { id: invoke.id, src: nameOf(invoke.src), ...(done && { onDone: done }), ...(error && { onError: error }) };
    });
  }
  const done = take(byEvent, `xstate.done.state.${node.id}`);
  if (done) json.onDone = done;
  if (byEvent.size > 0) json.on = Object.fromEntries([...byEvent].map(([event, transitions]) => [event, transitions.map(transitionJson)]));
  if (node.always?.length) json.always = (node.always as ResolvedTransition[]).map(transitionJson);
  const children = Object.entries(node.states);
  if (children.length > 0) json.states = Object.fromEntries(children.map(([key, child]) => [key, stateJson(child)]));
  return json;
}

function take(byEvent: Map<string, ResolvedTransition[]>, event: string): TransitionJson[] | undefined {
  const transitions = byEvent.get(event);
  byEvent.delete(event);
  return transitions?.map(transitionJson);
}

function transitionJson(transition: ResolvedTransition): TransitionJson {
  const json: TransitionJson = {};
  if (transition.target) json.target = transition.target.map((node) => `#${node.id}`);
  if (transition.guard !== undefined) json.guard = nameOf(transition.guard);
  if (transition.actions.length > 0) json.actions = transition.actions.map(nameOf);
  if (transition.reenter) json.reenter = true;
  return json;
}

/** The name of an action, guard or actor source: a string, a `{ type }` object, or a built-in. */
function nameOf(implementation: unknown): string {
  if (typeof implementation === 'string') return implementation;
  const { type, src, name } = implementation as { type?: unknown; src?: unknown; name?: unknown };
  if (type === 'xstate.spawnChild') return `spawnChild(${nameOf(src)})`;
  if (typeof type === 'string') return type.replace(/^xstate\./, '');
  return typeof name === 'string' && name !== '' ? name : 'anonymous';
}
