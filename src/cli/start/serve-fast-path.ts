import { plainServeFlags } from './serve-flags.js';

/**
 * Runs `hub serve` without loading oclif when the command line is plain `serve` with its own
 * flags: oclif's start (config, plugin discovery, the help plugin) is about 100 ms of every
 * restart's downtime. Returns false, having loaded nothing, for any other command line.
 * A failure is printed by oclif's own handler, exactly as the command prints it.
 */
export async function serveWithoutOclif(argv: readonly string[]): Promise<boolean> {
  const flags = plainServeFlags(argv);
  if (flags === undefined) return false;
  const { serve, ServeError } = await import('../serve/serve.js');
  try {
    await serve(flags);
  } catch (error) {
    const { CLIError, handle } = await import('@oclif/core/errors');
    await handle(error instanceof ServeError ? new CLIError(error.message, { exit: 1 }) : (error as Error));
  }
  return true;
}
