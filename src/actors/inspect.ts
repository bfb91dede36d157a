import { createInspector } from '@statelyai/inspect';
import type { InspectionEvent, MachineContext, Observer } from 'xstate';
import type { Logger } from '../runtime/logger.js';
import { InspectorSocket } from './inspect-socket.js';

export type Inspect = Observer<InspectionEvent> | ((event: InspectionEvent) => void);

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
  if (/^wss?:\/\//.test(setting)) {
    const inspector = createInspector(new InspectorSocket(setting), {
      sanitizeContext,
      sanitizeEvent: (event) => ({ type: event.type }),
    });
    inspector.start();
    return { inspect: inspector.inspect, stop: () => inspector.stop() };
  }
  logger.warn({ XSTATE_INSPECT: setting }, 'XSTATE_INSPECT must be "log" or a ws:// URL; inspection is off');
  return undefined;
}
