import { DEFAULT_DRIFT_LEASE_MS, DEFAULT_MAX_SESSION_BYTES, DEFAULT_REDIS_PREFIX } from './defaults.js';
import { MIN_SESSION_SECRET_LENGTH } from './session-secret.js';
import { isRedisUrl } from './redis-url.js';
import { listenHost } from '../runtime/listen-host.js';
import { isDebugEnabled } from '../runtime/logger.js';
import { displayUrl, hasUnambiguousCredentials } from '../runtime/url-credentials.js';

/** One OpenAI-compatible provider. `apiKey` undefined means no key was configured. */
export interface ProviderConfig {
  readonly apiKey: string | undefined;
  /** Undefined: the OpenAI API. */
  readonly baseURL: string | undefined;
  readonly model: string;
}

/** What the supervisor sets on a restarted child: see `ChatConfig.keyCheckedBefore`. */
export const KEY_CHECKED_VARIABLE = 'EMOTION_HUB_KEY_CHECKED';

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
  /** One log line per HTTP request (`LOG_REQUESTS`); off by default, so the page's own polls write nothing. */
  readonly logRequests: boolean;
  readonly driftIntervalMs: number;
  /** Longest accepted chat message, in characters (`MAX_MESSAGE_LENGTH`). */
  readonly maxMessageLength: number;
  /** How long one provider call may take before it counts as failed (`LLM_TIMEOUT_MS`). */
  readonly providerTimeoutMs: number;
  /**
   * Set by `hub serve --supervise` on every child after one was ready (`EMOTION_HUB_KEY_CHECKED`, not
   * for users): the keys were checked at the first start, and a restart does not ask the provider again;
   * a service was ready on the store, so it is not read whole apart again either.
   */
  readonly keyCheckedBefore?: boolean;
  /** What a failed model call does to the service (`ON_MODEL_FAILURE`): `exit` (docs/specification.md#states) or `stay`. */
  readonly onModelFailure: ModelFailurePolicy;
  /** Visitors whose conversations are kept, least recently used forgotten first (`MAX_SESSIONS`). */
  readonly maxSessions: number;
  /** An idle visitor's conversation is forgotten after this (`SESSION_IDLE_MS`). */
  readonly sessionIdleMs: number;
  /** The conversations' total size in UTF-8 bytes of text, least recently used forgotten first (`MAX_SESSION_BYTES`). */
  readonly maxSessionBytes: number;
  /** Which proxies may say the request came over https (`TRUST_PROXY`), as Fastify's `trustProxy` takes it. */
  readonly trustProxy: TrustProxy;
  /** Signs the session ids (`SESSION_SECRET`); unset: generated and kept beside the state, or shared through Redis. */
  readonly sessionSecret: string | undefined;
  /** Origins that may show the page in a frame (`FRAME_ANCESTORS`, and https://huggingface.co on a Space); none by default. */
  readonly frameAncestors: readonly string[];
  /** On a Hugging Face Space (`SPACE_ID` set): its proxy's `X-Forwarded-Proto` is believed without `TRUST_PROXY`. */
  readonly onSpace: boolean;
  /** Set (`REDIS_URL`): this process is one replica of a service sharing that Redis; unset: one process alone. */
  readonly redis: RedisConfig | undefined;
  /** Who reads a visitor's message (`APPRAISAL`, `APPRAISAL_MODEL`, `APPRAISAL_WAIT_MS`); absent: the local model alone. */
  readonly appraisal?: AppraisalConfig;
}

/** `APPRAISAL=model`: the chat model reads each message too, beside the local model (docs/appraisal.md). */
export interface AppraisalConfig {
  readonly source: 'local' | 'model';
  /** The model asked on the `LLM_*` provider (`APPRAISAL_MODEL`, default `LLM_MODEL`). */
  readonly model: string;
  /** How long after the reply ended the model's reading is still waited for (`APPRAISAL_WAIT_MS`). */
  readonly waitMs: number;
}

export interface RedisConfig {
  readonly url: string;
  /** Starts every key (`REDIS_PREFIX`), so that several services can share one Redis. */
  readonly prefix: string;
  /** The drifting replica's lease (`DRIFT_LEASE_MS`): another one takes over within it when it dies. */
  readonly driftLeaseMs: number;
}

/** Fastify's `trustProxy`: trust all or none, a list of addresses, or a rule on (address, hop). */
export type TrustProxy = boolean | string | ((address: string, hop: number) => boolean);

export type ModelFailurePolicy = 'exit' | 'stay';

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

/**
 * A URL whose credentials hold an unencoded `/`, `?`, `#` or `@` does not parse, or parses with part
 * of them read as a path, query or fragment: refused, and never shown. Any other value that is not
 * a URL of the kind asked for is refused with the value as written (no `@`, no credentials).
 */
function urlOf(name: string, raw: string, kinds: string, accepts: (url: URL) => boolean): string {
  if (raw.includes('@') && !hasUnambiguousCredentials(raw)) {
    throw new ConfigError(
      `${name} is not a URL that parses with its credentials before the host (percent-encode "/", "?", "#" and "@" in them); the value is not shown`,
    );
  }
  if (!URL.canParse(raw) || !accepts(new URL(raw))) throw new ConfigError(`${name} must be ${kinds}, got "${displayUrl(raw)}"`);
  return raw;
}

function url(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = text(env, name);
  if (raw === undefined) return undefined;
  return urlOf(name, raw, 'an http(s) URL', ({ protocol }) => protocol === 'http:' || protocol === 'https:');
}

function redis(env: NodeJS.ProcessEnv): RedisConfig | undefined {
  const raw = text(env, 'REDIS_URL');
  if (raw === undefined) return undefined;
  return {
    url: urlOf('REDIS_URL', raw, 'a redis:// or rediss:// URL', (parsed) => isRedisUrl(parsed.href)),
    prefix: env.REDIS_PREFIX ?? DEFAULT_REDIS_PREFIX,
    driftLeaseMs: integer(env, 'DRIFT_LEASE_MS', DEFAULT_DRIFT_LEASE_MS, 100, 3_600_000),
  };
}

function choice<T extends string>(env: NodeJS.ProcessEnv, name: string, choices: readonly T[]): T {
  const raw = text(env, name)?.toLowerCase() ?? choices[0]!;
  if (!(choices as readonly string[]).includes(raw)) throw new ConfigError(`${name} must be one of ${choices.join(', ')}, got "${raw}"`);
  return raw as T;
}

/** An on/off switch: `1`, `true`, `on`, `yes`, or `0`, `false`, `off`, `no`; unset is off. */
function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = text(env, name)?.toLowerCase();
  if (raw === undefined || ['0', 'false', 'off', 'no'].includes(raw)) return false;
  if (['1', 'true', 'on', 'yes'].includes(raw)) return true;
  throw new ConfigError(`${name} must be 1 or 0 (true/false, on/off, yes/no), got "${raw}"`);
}

/**
 * `TRUST_PROXY`: unset or `false` trusts nobody (X-Forwarded-* ignored); `true` trusts every hop; a number
 * trusts that many hops; anything else is a comma-separated list of proxy addresses or CIDR ranges.
 */
function trustProxy(env: NodeJS.ProcessEnv): TrustProxy {
  const raw = text(env, 'TRUST_PROXY');
  if (raw === undefined || raw.toLowerCase() === 'false') return false;
  if (raw.toLowerCase() === 'true') return true;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    return (_address, hop) => hop < hops;
  }
  return raw;
}

function sessionSecret(env: NodeJS.ProcessEnv): string | undefined {
  const raw = text(env, 'SESSION_SECRET');
  // Short enough to guess: refused (the value itself is never shown).
  if (raw !== undefined && raw.length < MIN_SESSION_SECRET_LENGTH) {
    throw new ConfigError(
      `SESSION_SECRET must be at least ${MIN_SESSION_SECRET_LENGTH} characters long (openssl rand -base64 32 makes one)`,
    );
  }
  return raw;
}

/** A Space's page is shown in a frame on the Hub. */
export const SPACE_FRAME_ANCESTOR = 'https://huggingface.co';

/**
 * `FRAME_ANCESTORS`: space-separated origins (`https://example.com`, `http://127.0.0.1:8080`), each as
 * its origin; on a Space https://huggingface.co comes first.
 */
function frameAncestors(env: NodeJS.ProcessEnv, onSpace: boolean): readonly string[] {
  const origins = (text(env, 'FRAME_ANCESTORS') ?? '').split(/\s+/).filter((origin) => origin !== '');
  for (const origin of origins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    // Only what an origin can hold: no ; or quote could end the CSP directive it goes into.
    if (
      !parsed ||
      !/^[\w.:/*[\]-]+$/.test(origin) ||
      (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') ||
      parsed.origin !== origin.replace(/\/$/, '')
    ) {
      throw new ConfigError(`FRAME_ANCESTORS must be space-separated origins such as https://example.com, got "${origin}"`);
    }
  }
  return [...new Set([...(onSpace ? [SPACE_FRAME_ANCESTOR] : []), ...origins.map((origin) => new URL(origin).origin)])];
}

/** Reads the chat service's settings from the environment (see the README's configuration table). */
export function loadChatConfig(env: NodeJS.ProcessEnv = process.env): ChatConfig {
  const onSpace = text(env, 'SPACE_ID') !== undefined;
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
    logRequests: flag(env, 'LOG_REQUESTS'),
    driftIntervalMs: integer(env, 'DRIFT_INTERVAL_MS', 10_000, 1, 86_400_000),
    maxMessageLength: integer(env, 'MAX_MESSAGE_LENGTH', 4000, 1, 1_000_000),
    providerTimeoutMs: integer(env, 'LLM_TIMEOUT_MS', 30_000, 1, 600_000),
    keyCheckedBefore: env[KEY_CHECKED_VARIABLE] === '1',
    onModelFailure: choice(env, 'ON_MODEL_FAILURE', ['exit', 'stay'] as const),
    maxSessions: integer(env, 'MAX_SESSIONS', 10_000, 1, 10_000_000),
    sessionIdleMs: integer(env, 'SESSION_IDLE_MS', 1_800_000, 1000, 2_592_000_000),
    maxSessionBytes: integer(env, 'MAX_SESSION_BYTES', DEFAULT_MAX_SESSION_BYTES, 1024, 2 ** 40),
    trustProxy: trustProxy(env),
    sessionSecret: sessionSecret(env),
    frameAncestors: frameAncestors(env, onSpace),
    onSpace,
    redis: redis(env),
    appraisal: {
      source: choice(env, 'APPRAISAL', ['local', 'model'] as const),
      model: text(env, 'APPRAISAL_MODEL') ?? primary.model,
      waitMs: integer(env, 'APPRAISAL_WAIT_MS', 500, 0, 600_000),
    },
  };
}
