/** The localtunnel client class, as its package exports it. */
export type LocaltunnelClass = typeof import('localtunnel/lib/Tunnel.js');

export const LOCALTUNNEL_MISSING_MESSAGE =
  'The built-in tunnel (share: true, hub webhooks listen --tunnel localtunnel) needs the localtunnel package, ' +
  'an optional peer dependency: run `npm install localtunnel@2.0.2` and add `"overrides": { "axios": "0.35.0" }` ' +
  'to your package.json (localtunnel pins an axios with published advisories). Or pass a tunnel of your own.';

/**
 * Loads localtunnel's client when a tunnel is asked for. It is an optional peer dependency, so that a
 * consumer who never shares installs no axios below 1.x; without it the message says what to install.
 */
export async function loadLocaltunnel(load: () => Promise<{ default: LocaltunnelClass }> = () => import('localtunnel/lib/Tunnel.js')) {
  try {
    return (await load()).default;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND') throw new Error(LOCALTUNNEL_MISSING_MESSAGE, { cause: error });
    throw error;
  }
}
