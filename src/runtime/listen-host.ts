/** Where a server listens when `HOST` is not given. */
export const LOCAL_HOST = '127.0.0.1';

/**
 * `HOST` when given; else `0.0.0.0` on a Hugging Face Space (`SPACE_HOST` or `SPACE_ID` set), whose
 * proxy reaches the container from outside; else loopback only.
 */
export function listenHost(env: NodeJS.ProcessEnv): string {
  const host = env.HOST?.trim();
  if (host) return host;
  return env.SPACE_HOST?.trim() || env.SPACE_ID?.trim() ? '0.0.0.0' : LOCAL_HOST;
}
