import { Command } from '@oclif/core/command';
import { ConfigError } from '../../config/chat-config.js';
import { Redactor } from '../../runtime/secrets.js';
import { ServiceStartError } from '../../service/chat-service.js';
import { runChatService } from '../../service/run-chat-service.js';

export default class Serve extends Command {
  static override description =
    'Run the emotion chat service: the web page and its JSON API on PORT (default 7860). Set LLM_API_KEY to chat; without it the page explains what to set.';

  static override examples = [
    '<%= config.bin %> serve',
    'LLM_API_KEY=<LLM_API_KEY> PORT=8080 <%= config.bin %> serve',
    'LLM_API_KEY=ollama LLM_BASE_URL=http://127.0.0.1:11434/v1 LLM_MODEL=llama3.2 <%= config.bin %> serve',
  ];

  async run(): Promise<void> {
    await this.parse(Serve);
    try {
      // The service keeps the process alive; SIGINT/SIGTERM stop it gracefully.
      await runChatService();
    } catch (error) {
      // The message may quote a provider's or Redis's own words, and those may quote a secret.
      if (error instanceof ConfigError || error instanceof ServiceStartError)
        this.error(Redactor.fromEnv(process.env).redact(error.message), { exit: 1 });
      throw error;
    }
  }
}
