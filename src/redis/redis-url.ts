/** What stands for a password (or a user name) when a Redis URL is shown. */
const HIDDEN = '***';

/**
 * The URL as it may appear in a log line or an error: the password, and the user name when
 * there is one, replaced by `***`. Text that is not a URL is hidden from `//` to the last `@`.
 */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = HIDDEN;
    if (parsed.username !== '') parsed.username = HIDDEN;
    return parsed.toString();
  } catch {
    return url.replace(/\/\/.*@/, `//${HIDDEN}@`);
  }
}

/** Whether `url` is one a Redis client can connect to: `redis://` or `rediss://` (TLS). */
export function isRedisUrl(url: string): boolean {
  try {
    const { protocol, hostname } = new URL(url);
    return (protocol === 'redis:' || protocol === 'rediss:') && hostname !== '';
  } catch {
    return false;
  }
}
