import type { ChatConfig } from '../config/chat-config.js';
import { SHORT_KEY_LENGTH } from '../runtime/secrets.js';

/** What the operator must hear before the service says it is ready: settings that chat or safety depend on. */
export type StartupConfig = Pick<ChatConfig, 'primary' | 'host' | 'frameAncestors' | 'onSpace'>;

export const KEY_MISSING_WARNING =
  'LLM_API_KEY is not set, so chat is off: set LLM_API_KEY (and LLM_BASE_URL and LLM_MODEL for a server that is not OpenAI) and start again; the page explains it at /error';

/** Addresses only this machine can reach. */
function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * The warnings that hold for as long as the process runs with `config`: no key (chat is off), the
 * page framed by other origins (its cookie then goes to their frames), a bind beyond this machine
 * (anyone who reaches it chats and moves the shared mood). On a Space the last two are its design.
 */
export function startupWarnings(config: StartupConfig): string[] {
  const warnings: string[] = [];
  if (config.primary.apiKey === undefined) warnings.push(KEY_MISSING_WARNING);
  else if (config.primary.apiKey.length < SHORT_KEY_LENGTH)
    warnings.push(
      `LLM_API_KEY is shorter than ${SHORT_KEY_LENGTH} characters: fine for a local server that takes any key; a real key is longer (is it cut short?). Logs hide it only where it stands as a word of its own`,
    );
  if (!config.onSpace) {
    if (config.frameAncestors.length > 0) {
      warnings.push(
        `the page may be shown in frames on ${config.frameAncestors.join(', ')} (FRAME_ANCESTORS): there the session cookie is SameSite=None`,
      );
    }
    if (!isLoopback(config.host)) {
      warnings.push(
        `listening on ${config.host}, not only on this machine: anyone who can reach it can chat and move the shared mood (HOST=127.0.0.1 keeps it local)`,
      );
    }
  }
  return warnings;
}
