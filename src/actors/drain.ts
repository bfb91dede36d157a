import { fromPromise } from 'xstate';
import type { Bus } from '../bus/bus.js';
import type { ChatConfig } from '../config/chat-config.js';
import { requestFlush } from './persistence-actor.js';

/** Read when the actor runs, not when it is built: `hub machine` builds the machine without services. */
interface DrainServices {
  readonly bus: Bus;
  readonly config: Pick<ChatConfig, 'providerTimeoutMs'>;
}

/** Beyond the model's own deadline: the commit of a reply that came at the last moment, and the bus. */
const DRAIN_MARGIN_MS = 5000;

/**
 * Lets the chats in flight end before a fatal exit, within one chat's deadline (the model's time
 * and the commit's); the dialogue refuses those still going then. The bus request's own bound
 * is a safety net: a drain that never answers must not keep the process alive.
 */
export const drainChats = (services: DrainServices) =>
  fromPromise<unknown>(() => {
    const withinMs = services.config.providerTimeoutMs + DRAIN_MARGIN_MS;
    return services.bus.request({ type: 'chat.drain.requested', withinMs }, 'chat.drained', withinMs + DRAIN_MARGIN_MS);
  });

/** Writes the state before a fatal exit; a write that hangs must not keep the process alive. */
export const flushState = (services: DrainServices) => fromPromise<unknown>(() => requestFlush(services.bus));
