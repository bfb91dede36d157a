import type { InspectionEvent, MachineContext } from 'xstate';
import type { SystemServices } from '../actors/system-setup.js';
import type { Logger } from '../runtime/logger.js';

export type Inspect = NonNullable<SystemServices['inspect']>;

/** An inspector and how to let go of it (a WebSocket one would otherwise keep the process alive). */
export interface Inspection {
  readonly inspect: Inspect;
  stop(): void;
}

/** Only the machine's own facts leave the process: never the config (keys), the bus or the conversation. */
function sanitizeContext(context: MachineContext | undefined): MachineContext {
  // Callback and promise actors have no context; only the system machine's needs cutting down.
  if (context === undefined) return {};
  return { started: context.started, failure: context.failure, source: context.store?.source };
}

/**
 * Live inspection, opt-in through `XSTATE_INSPECT`: `log` writes every machine event and state to
 * the debug log; a `ws://` or `wss://` URL streams them to a Stately inspector (@statelyai/inspect)
 * listening there. Unset (always, in tests): no inspection.
 */
export function inspectionFromEnv(env: NodeJS.ProcessEnv, logger: Logger): Inspection | undefined {
  const setting = env.XSTATE_INSPECT?.trim();
  if (!setting) return undefined;
  if (setting === 'log') {
    const inspect: Inspect = (event) => {
      if (event.type === '@xstate.event') logger.debug({ actor: event.actorRef.sessionId, event: event.event.type }, 'xstate event');
      if (event.type === '@xstate.snapshot') {
        logger.debug({ actor: event.actorRef.sessionId, value: (event.snapshot as { value?: unknown }).value }, 'xstate snapshot');
      }
    };
    return { inspect, stop: () => undefined };
  }
  if (/^wss?:\/\//.test(setting)) return socketInspection(setting, logger);
  logger.warn({ XSTATE_INSPECT: setting }, 'XSTATE_INSPECT must be "log" or a ws:// URL; inspection is off');
  return undefined;
}

/** Events kept while the inspector's modules load; the socket keeps as many while it connects. */
const MAX_EARLY_EVENTS = 200;

/**
 * Streams to a Stately inspector. @statelyai/inspect and ws (and what they load) are imported
 * only here, when XSTATE_INSPECT asks for it; the events of the first moments wait for them.
 */
function socketInspection(url: string, logger: Logger): Inspection {
  const early: InspectionEvent[] = [];
  let send: ((event: InspectionEvent) => void) | undefined;
  let stopInspector: (() => void) | undefined;
  let stopped = false;
  void Promise.all([import('@statelyai/inspect'), import('./inspect-socket.js')]).then(
    ([{ createInspector }, { InspectorSocket }]) => {
      if (stopped) return;
      const inspector = createInspector(new InspectorSocket(url), { sanitizeContext, sanitizeEvent: (event) => ({ type: event.type }) });
      inspector.start();
      send = (event) => inspector.inspect.next?.(event);
      stopInspector = () => inspector.stop();
      for (const event of early.splice(0)) send(event);
    },
    (error: unknown) => logger.warn({ err: error }, 'XSTATE_INSPECT: the inspector could not be loaded; inspection is off'),
  );
  return {
    inspect: (event) => {
      if (send) send(event);
      else if (!stopped && early.push(event) > MAX_EARLY_EVENTS) early.shift();
    },
    stop: () => {
      stopped = true;
      early.length = 0;
      stopInspector?.();
    },
  };
}
