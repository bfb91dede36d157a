/** Header names whose values are credentials: shown as `[redacted]`, whatever they hold. */
const SECRET_HEADER = /secret|token|authorization|cookie|api[-_]?key|password/i;

export const REDACTED = '[redacted]';

/** The headers with the value of every credential-like one replaced. */
export function redactHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, SECRET_HEADER.test(name) ? REDACTED : value]));
}

/**
 * `text` with every occurrence of each secret replaced: whatever a receiver echoed back (a secret in
 * an answer's body, say) never leaves the inspector. Secrets shorter than 4 characters are not
 * searched for: they would blank out ordinary words.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let redacted = text;
  for (const secret of secrets) if (secret.length >= 4) redacted = redacted.replaceAll(secret, REDACTED);
  return redacted;
}
