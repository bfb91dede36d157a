import { CliError, ExitCode } from './exit-codes.js';

/** An http(s) URL given on the command line; anything else is a usage error (exit 2) that names it. */
export function httpUrl(value: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliError(`${what} must be an http(s) URL, got "${value}".`, ExitCode.usage);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new CliError(`${what} must be an http(s) URL, got "${url.href}".`, ExitCode.usage);
  return url;
}
