/** Whether `url` is one a Redis client can connect to: `redis://` or `rediss://` (TLS). */
export function isRedisUrl(url: string): boolean {
  try {
    const { protocol, hostname } = new URL(url);
    return (protocol === 'redis:' || protocol === 'rediss:') && hostname !== '';
  } catch {
    return false;
  }
}
