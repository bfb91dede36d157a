import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/runtime/logger.js';

export interface CapturedLogger {
  readonly logger: Logger;
  /** Everything written so far. */
  text(): string;
  /** Every line written so far, parsed. */
  lines(): Record<string, unknown>[];
}

/** The project's logger (with its redaction), writing to memory so a test can read its lines back. */
export function capturedLogger(options: { debug?: boolean } = {}): CapturedLogger {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const text = (): string => chunks.join('');
  return {
    logger: createLogger({ debug: options.debug ?? true, destination: stream }),
    text,
    lines: () =>
      text()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
