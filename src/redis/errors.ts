/**
 * Redis cannot be reached, or did not answer in time. The message names the URL without its
 * password. While running, whatever needed Redis fails with this and the client reconnects by itself.
 */
export class RedisUnavailableError extends Error {
  override readonly name = 'RedisUnavailableError';
}
