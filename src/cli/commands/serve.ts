import { Command } from '@oclif/core/command';
import * as Flags from '@oclif/core/flags';
import { ServeError, serve } from '../serve/serve.js';

// `bin/run.js` runs a plain `hub serve` without oclif (src/cli/start/serve-fast-path.ts); this
// command serves the rest: help, and flags written in any form oclif accepts.
export default class Serve extends Command {
  static override description =
    'Run the emotion chat service: the web page and its JSON API on PORT (default 7860). Set LLM_API_KEY to chat; without it the page explains what to set.';

  static override examples = [
    '<%= config.bin %> serve',
    'LLM_API_KEY=<LLM_API_KEY> PORT=8080 <%= config.bin %> serve',
    'LLM_API_KEY=ollama LLM_BASE_URL=http://127.0.0.1:11434/v1 LLM_MODEL=llama3.2 <%= config.bin %> serve',
    'LLM_API_KEY=<LLM_API_KEY> <%= config.bin %> serve --supervise',
  ];

  static override flags = {
    supervise: Flags.boolean({
      description:
        'run the service in a child process and restart it after any exit (a model failure, a crash); a child that fails before it is ready ends the supervisor with status 1',
    }),
    // The supervisor's child: it reports its readiness to the supervisor.
    supervised: Flags.boolean({ hidden: true }),
    // The supervisor's next child, loaded and waiting until the current one has ended.
    standby: Flags.boolean({ hidden: true }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Serve);
    try {
      await serve(flags);
    } catch (error) {
      if (error instanceof ServeError) this.error(error.message, { exit: 1 });
      throw error;
    }
  }
}
