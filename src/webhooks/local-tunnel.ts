import type { Clock } from '../runtime/clock.js';
import type { Tunnel, TunnelProvider } from './tunnel.js';
import { loadLocaltunnel } from './tunnel-client.js';

/** huggingface_hub's (Gradio's) share links last 72 hours; so does this one. */
export const TUNNEL_LIFETIME_MS = 72 * 60 * 60 * 1000;
export const DEFAULT_TUNNEL_HOST = 'https://localtunnel.me';
const OPEN_TIMEOUT_MS = 30_000;

/** Starts a timer and returns what cancels it (injected by tests, which drive time themselves). */
export type Schedule = (callback: () => void, ms: number) => () => void;

export interface LocalTunnelOptions {
  /** The localtunnel server; default https://localtunnel.me (or one you host: github.com/localtunnel/server). */
  readonly host?: string;
  /** How long the public URL stays open; default 72 hours. */
  readonly lifetimeMs?: number;
  /** How long to wait for the server to hand out a URL before launch fails; default 30 s. */
  readonly openTimeoutMs?: number;
  /** Where the expiry and failure lines go; default `console.log`. */
  readonly print?: (line: string) => void;
  readonly clock?: Pick<Clock, 'now'>;
  readonly schedule?: Schedule;
}

const realSchedule: Schedule = (callback, ms) => {
  const timer = setTimeout(callback, ms);
  // The tunnel's sockets keep the process alive while it is open, not this timer.
  timer.unref();
  return () => clearTimeout(timer);
};

/**
 * The built-in public URL: a tunnel through a localtunnel server (the `localtunnel` npm client),
 * which closes itself after 72 hours, as huggingface_hub's share links do. `new WebhooksServer({ share: true })`
 * uses it; pass `tunnel: localTunnel({ host })` to use your own localtunnel server.
 */
export function localTunnel(options: LocalTunnelOptions = {}): TunnelProvider {
  const print = options.print ?? ((line: string) => console.log(line));
  const schedule = options.schedule ?? realSchedule;
  const now = (): Date => (options.clock ?? { now: () => new Date() }).now();
  const lifetimeMs = options.lifetimeMs ?? TUNNEL_LIFETIME_MS;
  const host = (options.host ?? DEFAULT_TUNNEL_HOST).replace(/\/+$/, '');

  return {
    async open(local) {
      const client = await openClient(host, local, options.openTimeoutMs ?? OPEN_TIMEOUT_MS);
      const url = client.url.replace(/\/+$/, '');
      // A dropped tunnel socket is the client's to reconnect; say so rather than crash the server.
      client.on('error', (error: Error) => print(`The public URL ${url} has a problem: ${error.message}`));

      let closed = false;
      const close = (): void => {
        if (closed) return;
        closed = true;
        cancelExpiry();
        client.close();
      };
      const expiresAt = new Date(now().getTime() + lifetimeMs);
      const cancelExpiry = schedule(() => {
        close();
        print(
          `The public URL ${url} expired and is closed (${formatLifetime(lifetimeMs)} after it opened). The local URL ${local.url} still works.`,
        );
      }, lifetimeMs);
      const tunnel: Tunnel = { url, expiresAt, close };
      return tunnel;
    },
  };
}

/**
 * localtunnel's client, asking the server for a URL once, with a deadline: its own request retries an
 * unreachable server every second for ever, which would hang the launch and keep the process alive.
 */
async function openClient(
  host: string,
  local: { host: string; port: number },
  timeoutMs: number,
): Promise<InstanceType<typeof import('localtunnel/lib/Tunnel.js')>> {
  // Loaded only when a tunnel is asked for.
  const Tunnel = await loadLocaltunnel();
  class OneAttemptTunnel extends Tunnel {
    override _init(callback: (error: Error | null, info?: Record<string, unknown>) => void): void {
      fetch(`${host}/?new`, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } })
        .then(async (response) => {
          const body = (await response.json().catch(() => ({}))) as { message?: string };
          if (!response.ok) throw new Error(body.message ?? `HTTP ${response.status}`);
          callback(null, this._getInfo(body));
        })
        .catch((error: Error & { cause?: Error }) =>
          callback(new Error(`The tunnel server ${host} gave no URL: ${error.cause?.message ?? error.message}`)),
        );
    }
  }
  const client = new OneAttemptTunnel({
    port: local.port,
    host,
    local_host: local.host === '0.0.0.0' || local.host === '::' ? '127.0.0.1' : local.host,
  });
  await new Promise<void>((resolve, reject) => client.open((error) => (error ? reject(error) : resolve())));
  return client;
}

function formatLifetime(ms: number): string {
  const hours = ms / 3_600_000;
  return Number.isInteger(hours) ? `${hours} hours` : `${Math.round(ms / 1000)} s`;
}
