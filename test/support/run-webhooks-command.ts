import { settings, type Command, type Config } from '@oclif/core';
import { captureOutput } from '@oclif/test';
import { type CliRuntime, setCliRuntime } from '../../src/cli/cli-command.js';
import type { Terminal } from '../../src/cli/terminal.js';
import { ROOT } from './built-cli.js';
import { TOKEN } from './hub-fixtures.js';

// Commands load from src/ through tap's TypeScript loader, never through oclif's transpiler.
settings.enableAutoTranspile = false;

/** No person at the keyboard; asking anyway fails the test. */
export const noTerminal: Terminal = {
  interactive: () => false,
  confirm: () => Promise.reject(new Error('confirm() must not be called without a terminal')),
};

/** A terminal whose user answers `answer`; the questions asked are recorded. */
export function answeringTerminal(answer: boolean): Terminal & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    interactive: () => true,
    confirm: async (message) => {
      asked.push(message);
      return answer;
    },
  };
}

export interface CommandRun {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command class in-process. The environment holds a token and an empty HOME unless `runtime`
 * says otherwise, so the developer's own token and HF_ENDPOINT are never read.
 */
export async function runWebhooksCommand(
  command: (new (argv: string[], config: Config) => Command) & { run: typeof Command.run },
  argv: string[],
  runtime: Partial<CliRuntime> = {},
): Promise<CommandRun> {
  const saved = setCliRuntime({ env: { HF_TOKEN: TOKEN, HOME: '/nonexistent-home' }, terminal: noTerminal, ...runtime });
  try {
    const { error, stdout, stderr } = await captureOutput(() => command.run(argv, ROOT));
    const exitCode = error === undefined ? 0 : typeof error.oclif?.exit === 'number' ? error.oclif.exit : -1;
    if (exitCode === -1) throw error;
    return { exitCode, stdout, stderr };
  } finally {
    setCliRuntime(saved);
  }
}
