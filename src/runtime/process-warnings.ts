import type { Logger } from './logger.js';

/**
 * Node's process warnings (MaxListenersExceededWarning, deprecations, experimental features) as warn
 * lines of the JSON log instead of plain text on stderr, which a log collector cannot read. Node's
 * own printer is one of the 'warning' listeners: replacing the listeners replaces it.
 */
export function logProcessWarnings(logger: Logger): void {
  process.removeAllListeners('warning');
  process.on('warning', (warning: Error & { code?: string }) => {
    logger.warn({ warning: { name: warning.name, code: warning.code, message: warning.message } }, `process warning: ${warning.name}`);
  });
}
