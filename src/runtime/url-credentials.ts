/** What stands for a URL that cannot be shown safely: it does not parse, or parses with an `@` past its host. */
export const HIDDEN_URL = '[a URL that may hold credentials: not shown]';

/** A URL in free text: a scheme, `://` and everything up to the next blank or quote. */
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;

/**
 * The URL without its username and password, as the WHATWG URL parser reads it
 * (`http://user:key@host/v1` → `http://host/v1`). A text whose parse leaves an `@` after the host
 * (credentials with an unencoded `/`, `?` or `#`, read as a path, query or fragment), or that does
 * not parse and has an `@`, may still hold them: it is not shown at all. A text with no `@` has no
 * credentials to hold: shown as written (`huggingface.co`), so that its mistake can be seen.
 */
export function displayUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return raw.includes('@') ? HIDDEN_URL : raw;
  }
  url.username = '';
  url.password = '';
  if (url.href.includes('@')) return HIDDEN_URL;
  // The parser adds a `/` to a bare host: shown as written (`http://host:1`, not `http://host:1/`).
  const bare = url.pathname === '/' && url.search === '' && url.hash === '' && !raw.endsWith('/');
  return bare ? url.href.slice(0, -1) : url.href;
}

/** Whether the text parses as a URL, with its credentials where a client reads them (no `@` after the host). */
export function hasUnambiguousCredentials(raw: string): boolean {
  return URL.canParse(raw) && displayUrl(raw) !== HIDDEN_URL;
}

/**
 * The text with every URL in it shown by {@link displayUrl}, for log lines and error messages that
 * name a base URL or quote an error that does. A base URL is given back as written when it has no
 * credentials (no trailing slash added).
 */
export function withoutCredentials(text: string): string {
  return text.replace(URL_IN_TEXT, (found) => {
    const shown = displayUrl(found);
    return shown === HIDDEN_URL || found.includes('@') ? shown : found;
  });
}

/**
 * Where a URL points, as the webhook tools show a target: its origin and path, without credentials
 * or query (where a token may ride: `?token=…`). A text that is no URL is not shown at all.
 */
export function urlWithoutQuery(url: URL | string): string {
  if (typeof url === 'string' && !URL.canParse(url)) return HIDDEN_URL;
  const { origin, pathname } = typeof url === 'string' ? new URL(url) : url;
  return `${origin}${pathname}`;
}

/** The password a URL carries (as written and percent-decoded), for the list of secrets to redact. */
export function urlPasswords(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  try {
    const { password } = new URL(raw);
    if (password === '') return [];
    return [password, decodeURIComponent(password)];
  } catch {
    return [];
  }
}
