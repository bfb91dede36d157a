/** `scheme://user:password@` inside any text: what a base URL may carry and a log line must not. */
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]*@/gi;

/**
 * The text with the credentials of every URL in it removed (`http://user:key@host/v1` → `http://host/v1`),
 * for log lines and error messages that name a base URL or quote an error that does.
 */
export function withoutCredentials(text: string): string {
  return text.replace(USERINFO, '$1');
}
