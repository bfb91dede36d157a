import type { Bus } from '../bus/bus.js';
import type { Logger } from '../runtime/logger.js';

export interface ReadyAnnouncerOptions {
  readonly bus: Bus;
  readonly logger: Logger;
  /** Where the page is: `http://host:port`. */
  readonly address: string;
  /** Said last before "ready", then again every `remindEveryMs` while the process runs. */
  readonly warnings: readonly string[];
  /** Default one minute. */
  readonly remindEveryMs?: number;
}

export const REMIND_EVERY_MS = 60_000;

/**
 * The start's last lines: once the system has settled (ready, or without a key), every warning that
 * holds, then one line saying where the page is. The start's other lines scroll away; the warnings
 * come back once a minute, so that one glance at the terminal still shows them. Returns a stop.
 */
export function announceReady(options: ReadyAnnouncerOptions): () => void {
  const { bus, logger, address, warnings } = options;
  let reminder: NodeJS.Timeout | undefined;
  const warn = () => {
    for (const warning of warnings) logger.warn(warning);
  };
  const phases = bus.on('system.phase.changed').subscribe(({ phase }) => {
    if (phase === 'failed') return stop();
    if (phase !== 'ready' && phase !== 'keyMissing') return;
    phases.unsubscribe();
    warn();
    logger.info(`ready: the page is at ${address}${phase === 'keyMissing' ? ' (chat is off until LLM_API_KEY is set)' : ''}`);
    if (warnings.length > 0) reminder = setInterval(warn, options.remindEveryMs ?? REMIND_EVERY_MS).unref();
  });
  function stop(): void {
    phases.unsubscribe();
    clearInterval(reminder);
  }
  return stop;
}
