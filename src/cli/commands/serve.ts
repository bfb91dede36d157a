import { Command } from '@oclif/core/command';
import * as Flags from '@oclif/core/flags';
import { ConfigError } from '../../config/chat-config.js';
import { Redactor } from '../../runtime/secrets.js';
import { ServiceStartError } from '../../service/chat-service.js';
import { runChatService } from '../../service/run-chat-service.js';
import { runSupervisor } from '../../supervisor/run-supervisor.js';
import { standBy } from '../../supervisor/standby.js';

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
    if (flags.supervise) {
      process.exitCode = await runSupervisor();
      return;
    }
    if (flags.standby) await standBy();
    try {
      // The service keeps the process alive; SIGINT/SIGTERM stop it gracefully.
      await runChatService({ supervised: flags.supervised });
    } catch (error) {
      // The message may quote a provider's or Redis's own words, and those may quote a secret.
      if (error instanceof ConfigError || error instanceof ServiceStartError)
        this.error(Redactor.fromEnv(process.env).redact(error.message), { exit: 1 });
      throw error;
    }
  }
}
