/** The questions a command may ask, behind an interface so that tests answer them in-process. */
export interface Terminal {
  /** True when a person can answer a prompt. */
  interactive(): boolean;
  /** Asks a yes/no question, "no" by default; an interrupted prompt counts as "no". */
  confirm(message: string): Promise<boolean>;
}

/**
 * A terminal on the given streams. The prompt goes to stderr by default so that stdout stays the
 * command's output; @inquirer/prompts is imported only when a question is actually asked.
 */
export function createTerminal(
  input: NodeJS.ReadableStream & { isTTY?: boolean },
  output: NodeJS.WritableStream & { isTTY?: boolean },
): Terminal {
  return {
    interactive: () => Boolean(input.isTTY && output.isTTY),
    async confirm(message) {
      const { confirm } = await import('@inquirer/prompts');
      try {
        return await confirm({ message, default: false }, { input, output });
      } catch (error) {
        if ((error as Error).name === 'ExitPromptError') return false;
        throw error;
      }
    },
  };
}

export const processTerminal: Terminal = createTerminal(process.stdin, process.stderr);
