// localtunnel 2.0.2 ships no types; the part this package uses: its client class.
declare module 'localtunnel/lib/Tunnel.js' {
  import { EventEmitter } from 'node:events';

  interface TunnelOptions {
    port: number;
    host: string;
    local_host?: string;
  }

  /** What the server's `GET /?new` answers, mapped by `_getInfo` to what the client connects with. */
  type TunnelInfo = Record<string, unknown>;

  class Tunnel extends EventEmitter {
    constructor(options: TunnelOptions);
    readonly opts: TunnelOptions;
    url: string;
    _getInfo(body: unknown): TunnelInfo;
    _init(callback: (error: Error | null, info?: TunnelInfo) => void): void;
    open(callback: (error?: Error | null) => void): void;
    close(): void;
  }

  export = Tunnel;
}
