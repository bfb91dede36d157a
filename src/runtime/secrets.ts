import { urlPasswords } from './url-credentials.js';

/** What a secret is replaced with. */
export const REDACTED = '[redacted]';

/**
 * Shorter values are not redacted: a one- to three-character "secret" would blank out that text in
 * every line and protects nothing.
 */
export const MIN_SECRET_LENGTH = 4;

/** A key shorter than this is easy to guess, and likely to stand inside other words: the start warns of it. */
export const SHORT_KEY_LENGTH = 8;

/** What continues a token: a secret next to one of these is part of another word, not the secret. */
const TOKEN_CHARACTER = '[A-Za-z0-9_-]';

/** The environment variables that hold a secret as a whole value. */
export const SECRET_VARIABLES = [
  'LLM_API_KEY',
  'CHAT_API_KEY',
  'WEBHOOK_SECRET',
  'HF_TOKEN',
  'HUGGING_FACE_HUB_TOKEN',
  'SESSION_SECRET',
] as const;

/** The variables holding a URL whose password is a secret. */
export const SECRET_URL_VARIABLES = ['REDIS_URL', 'WEBHOOK_REDIS_URL', 'LLM_BASE_URL', 'CHAT_BASE_URL', 'HF_ENDPOINT'] as const;

/**
 * Every secret value the process knows, blanked out of any text wherever it appears: a log line, an
 * error body, an event-log entry, a provider's error that echoes the key. Pino's path redaction
 * only knows field names; this knows the values. Each secret is also matched as JSON writes it
 * inside a string and as a URL encodes it.
 */
export class Redactor {
  #forms: string[] = [];

  constructor(secrets: Iterable<string | undefined> = []) {
    this.add(...secrets);
  }

  /** The secrets of the environment: the variables above, and the passwords of its URLs. */
  static fromEnv(env: NodeJS.ProcessEnv): Redactor {
    return new Redactor([
      ...SECRET_VARIABLES.map((name) => env[name]?.trim()),
      ...SECRET_URL_VARIABLES.flatMap((name) => urlPasswords(env[name]?.trim())),
    ]);
  }

  /** Adds secrets known later (a session secret read from its file). */
  add(...secrets: Array<string | undefined>): void {
    const forms = new Set(this.#forms);
    for (const secret of secrets) {
      if (secret === undefined || secret.length < MIN_SECRET_LENGTH) continue;
      forms.add(secret);
      forms.add(JSON.stringify(secret).slice(1, -1));
      forms.add(encodeURIComponent(secret));
    }
    // Longest first: a secret that contains another is blanked out whole.
    this.#forms = [...forms].sort((a, b) => b.length - a.length);
    this.#whole =
      this.#forms.length === 0
        ? undefined
        : new RegExp(
            `(?<!${TOKEN_CHARACTER})(?:${this.#forms.map((form) => form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?!${TOKEN_CHARACTER})`,
            'g',
          );
  }

  #whole: RegExp | undefined;

  /**
   * Blanks out each secret where it stands as a whole token: a key `fake` inside `fake-model` is
   * another word, left as it is (blanking it would mangle the word and tell where the key sits).
   */
  redact(text: string): string {
    if (this.#whole === undefined || !this.#forms.some((form) => text.includes(form))) return text;
    return text.replace(this.#whole, REDACTED);
  }
}
