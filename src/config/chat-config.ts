import { listenHost } from '../runtime/listen-host.js';
import { isDebugEnabled } from '../runtime/logger.js';

/** One OpenAI-compatible provider. `apiKey` undefined means no key was configured. */
export interface ProviderConfig {
  readonly apiKey: string | undefined;
  /** Undefined: the OpenAI API. */
  readonly baseURL: string | undefined;
  readonly model: string;
}

export interface ChatConfig {
  readonly port: number;
  readonly host: string;
  /** The primary provider (`LLM_*`): its key decides ready versus key-missing. */
  readonly primary: ProviderConfig;
  /** The conversational provider (`CHAT_*`, falling back to `LLM_*`) that writes replies. */
  readonly secondary: ProviderConfig;
  readonly emotionsFile: string;
  readonly eventLog: string | undefined;
  readonly debug: boolean;
  readonly driftIntervalMs: number;
  /** Longest accepted chat message, in characters (`MAX_MESSAGE_LENGTH`). */
  readonly maxMessageLength: number;
  /** How long one provider call may take before it counts as failed (`LLM_TIMEOUT_MS`). */
  readonly providerTimeoutMs: number;
}

export const DEFAULT_MODEL = 'gpt-4o-mini';

/** An environment value that cannot be used; the message names the variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

function text(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function url(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = text(env, name);
  if (raw === undefined) return undefined;
  try {
    const parsed = new URL(raw);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http(s)');
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  }
  return raw;
}

/** Reads the chat service's settings from the environment (see the README's table). */
export function loadChatConfig(env: NodeJS.ProcessEnv = process.env): ChatConfig {
  const primary: ProviderConfig = {
    apiKey: text(env, 'LLM_API_KEY'),
    baseURL: url(env, 'LLM_BASE_URL'),
    model: text(env, 'LLM_MODEL') ?? DEFAULT_MODEL,
  };
  return {
    port: integer(env, 'PORT', 7860, 0, 65535),
    host: listenHost(env),
    primary,
    secondary: {
      apiKey: text(env, 'CHAT_API_KEY') ?? primary.apiKey,
      baseURL: url(env, 'CHAT_BASE_URL') ?? primary.baseURL,
      model: text(env, 'CHAT_MODEL') ?? primary.model,
    },
    emotionsFile: text(env, 'EMOTIONS_FILE') ?? './emotions.json',
    eventLog: text(env, 'EVENT_LOG'),
    debug: isDebugEnabled(env),
    driftIntervalMs: integer(env, 'DRIFT_INTERVAL_MS', 10_000, 1, 86_400_000),
    maxMessageLength: integer(env, 'MAX_MESSAGE_LENGTH', 4000, 1, 1_000_000),
    providerTimeoutMs: integer(env, 'LLM_TIMEOUT_MS', 30_000, 1, 600_000),
  };
}
