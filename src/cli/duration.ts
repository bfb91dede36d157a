import { CliError, ExitCode } from './exit-codes.js';

const UNITS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `90s`, `30m`, `2h`, `7d`, `1w`, or several (`1h30m`), in milliseconds; anything else is a usage error naming `what`. */
export function parseDuration(text: string, what: string): number {
  const parts = [...text.trim().matchAll(/(\d+(?:\.\d+)?)\s*([smhdw])/g)];
  const consumed = parts.map((part) => part[0]).join('');
  if (parts.length === 0 || consumed.replace(/\s/g, '') !== text.replace(/\s/g, ''))
    throw new CliError(`${what} must be a duration such as 30m, 2h, 7d or 1h30m, got "${text}".`, ExitCode.usage);
  return parts.reduce((total, [, amount, unit]) => total + Number(amount) * (UNITS[unit as string] ?? 0), 0);
}
