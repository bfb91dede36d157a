import pino, { type DestinationStream, type Logger } from 'pino';
import { Redactor } from './secrets.js';

export type { Logger };

/**
 * Paths pino blanks out wherever they occur in a log object, so keys, tokens
 * and secrets never reach a log line.
 */
export const REDACTED_PATHS = [
  'apiKey',
  '*.apiKey',
  'token',
  '*.token',
  'secret',
  '*.secret',
  'webhookSecret',
  '*.webhookSecret',
  'authorization',
  '*.authorization',
  'headers.authorization',
  '*.headers.authorization',
  'headers["x-webhook-secret"]',
  '*.headers["x-webhook-secret"]',
  'headers.cookie',
  '*.headers.cookie',
];

/** `DEBUG` is on unless it says `0` or `false` (docs/specification.md#settings: debug mode is on by default). */
export function isDebugEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.DEBUG?.trim().toLowerCase();
  return !(value === '0' || value === 'false');
}

export interface LoggerOptions {
  readonly name?: string;
  readonly debug?: boolean;
  /** Human-readable output through pino-pretty; defaults to whether stdout is a terminal. */
  readonly pretty?: boolean;
  /** Where lines go instead of stdout (tests pass a stream to read them back). */
  readonly destination?: DestinationStream;
  /** The secret values blanked out of every line, wherever they appear; defaults to those of `process.env`. */
  readonly redactor?: Redactor;
}

/** How a line looks on a terminal, one line each: the service's own, and its children's under `--supervise`. */
export const PRETTY_OPTIONS = { colorize: true, translateTime: 'SYS:standard', singleLine: true } as const;

/**
 * Formats a JSON log line (a supervised child's) as the terminal shows the supervisor's own; a
 * line that is not JSON comes back as it is.
 */
export async function prettyLines(): Promise<(line: string) => string> {
  const { prettyFactory } = await import('pino-pretty');
  const pretty = prettyFactory(PRETTY_OPTIONS);
  return (line) => {
    try {
      return pretty(JSON.parse(line) as object).replace(/\n$/, '');
    } catch {
      return line;
    }
  };
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const level = (options.debug ?? isDebugEnabled()) ? 'debug' : 'info';
  const redactor = options.redactor ?? Redactor.fromEnv(process.env);
  const base = {
    name: options.name ?? 'emotion-hub',
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    // The finished line, whatever field or message carries a secret (a provider's error quoting the key).
    hooks: { streamWrite: (line: string) => redactor.redact(line) },
  };
  if (options.destination) return pino(base, options.destination);
  if (options.pretty ?? process.stdout.isTTY === true) {
    return pino({ ...base, transport: { target: 'pino-pretty', options: PRETTY_OPTIONS } });
  }
  return pino(base);
}
