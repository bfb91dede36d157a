import { urlPasswords } from './url-credentials.js';

/** What a secret is replaced with. */
export const REDACTED = '[redacted]';

/**
 * Shorter values are not redacted: a one- to three-character "secret" would blank out that text in
 * every line and protects nothing.
 */
export const MIN_SECRET_LENGTH = 4;

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
  }

  redact(text: string): string {
    let result = text;
    for (const form of this.#forms) if (result.includes(form)) result = result.replaceAll(form, REDACTED);
    return result;
  }
}
