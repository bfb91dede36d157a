/**
 * Makes a local server reachable from the Hub. None is built in and none runs
 * unless given: opening a tunnel is a network call to a third party, so it is
 * the user's explicit choice (see docs/webhooks-receiver.md for a `cloudflared` example).
 */
export interface TunnelProvider {
  /** Opens a tunnel to the local server and resolves with its public URL. */
  open(local: { readonly url: string; readonly host: string; readonly port: number }): Promise<Tunnel>;
}

export interface Tunnel {
  /** The public base URL, e.g. `https://random-words.trycloudflare.com`. */
  readonly url: string;
  /** Called when the server closes. */
  close?(): void | Promise<void>;
}
