/**
 * Makes a local server reachable from the Hub. None runs unless asked for:
 * opening a tunnel is a network call to a third party, so it is the user's
 * explicit choice: `share: true` (the built-in localtunnel client, see
 * local-tunnel.ts), or any provider of your own (a `cloudflared` one, say).
 */
export interface TunnelProvider {
  /** Opens a tunnel to the local server and resolves with its public URL. */
  open(local: { readonly url: string; readonly host: string; readonly port: number }): Promise<Tunnel>;
}

export interface Tunnel {
  /** The public base URL, e.g. `https://random-words.trycloudflare.com`. */
  readonly url: string;
  /** When the public URL stops working, if it has a lifetime; printed at launch. */
  readonly expiresAt?: Date;
  /** Called when the server closes. */
  close?(): void | Promise<void>;
}
