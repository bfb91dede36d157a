import type { ServeFlags } from '../serve/serve.js';

const FLAG_NAMES = { '--supervise': 'supervise', '--supervised': 'supervised', '--standby': 'standby' } as const;

/**
 * The second reading of `hub serve`'s flags, so that a plain `hub serve` skips oclif (serve-fast-path.ts):
 * the flags of a command line that is `serve` followed only by its own boolean flags, each at
 * most once; anything else (help, a typo, another command) is `undefined`, left to oclif.
 */
export function plainServeFlags(argv: readonly string[]): ServeFlags | undefined {
  const [command, ...rest] = argv;
  if (command !== 'serve') return undefined;
  const flags = { supervise: false, supervised: false, standby: false };
  for (const arg of rest) {
    const name = Object.hasOwn(FLAG_NAMES, arg) ? FLAG_NAMES[arg as keyof typeof FLAG_NAMES] : undefined;
    if (name === undefined || flags[name]) return undefined;
    flags[name] = true;
  }
  return flags;
}
