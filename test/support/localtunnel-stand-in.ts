import { once } from 'node:events';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * A localtunnel server on 127.0.0.1, speaking the protocol of github.com/localtunnel/server as its
 * npm client expects it: `GET /?new` answers `{id, ip, port, max_conn_count, url}`; the client then
 * opens `max_conn_count` TCP connections to `ip:port`; each connection to the public URL is piped to
 * one of them, and the client pipes it on to the local server.
 */
export interface LocaltunnelStandIn {
  /** The server to give the client (`host`). */
  readonly url: string;
  /** The public URL handed out (set after the first `GET /?new`). */
  publicUrl(): string | undefined;
  /** Tunnel connections the client holds open right now. */
  openTunnels(): number;
  /** `GET /?new` requests received. */
  requests(): number;
  close(): Promise<void>;
}

export async function startLocaltunnelStandIn(refuse?: { status: number; message: string }): Promise<LocaltunnelStandIn> {
  const tunnels = new Set<Socket>();
  const idle: Socket[] = [];
  const waiting: ((socket: Socket) => void)[] = [];
  const servers: Server[] = [];
  let publicUrl: string | undefined;
  let requests = 0;

  const listen = async (server: Server): Promise<number> => {
    servers.push(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return (server.address() as AddressInfo).port;
  };

  const tunnelServer = createTcpServer((socket) => {
    tunnels.add(socket);
    socket.on('close', () => {
      tunnels.delete(socket);
      idle.splice(idle.indexOf(socket) >>> 0, idle.includes(socket) ? 1 : 0);
    });
    socket.on('error', () => socket.destroy());
    const next = waiting.shift();
    if (next) next(socket);
    else idle.push(socket);
  });
  const publicServer = createTcpServer((visitor) => {
    visitor.on('error', () => visitor.destroy());
    const pipe = (tunnel: Socket): void => {
      visitor.pipe(tunnel).pipe(visitor);
      visitor.on('close', () => tunnel.destroy());
    };
    const tunnel = idle.shift();
    if (tunnel) pipe(tunnel);
    else waiting.push(pipe);
  });
  const tunnelPort = await listen(tunnelServer);
  const publicPort = await listen(publicServer);

  const control = createHttpServer((request, response) => {
    requests += 1;
    if (request.method !== 'GET' || request.url !== '/?new') {
      response.writeHead(404).end();
      return;
    }
    response.setHeader('content-type', 'application/json');
    if (refuse) {
      response.writeHead(refuse.status).end(JSON.stringify({ message: refuse.message }));
      return;
    }
    publicUrl = `http://127.0.0.1:${publicPort}`;
    response.end(JSON.stringify({ id: 'brave-otter-42', ip: '127.0.0.1', port: tunnelPort, max_conn_count: 2, url: publicUrl }));
  });
  const controlPort = await listen(control as unknown as Server);

  return {
    url: `http://127.0.0.1:${controlPort}`,
    publicUrl: () => publicUrl,
    openTunnels: () => tunnels.size,
    requests: () => requests,
    async close() {
      for (const socket of tunnels) socket.destroy();
      (control as unknown as { closeAllConnections(): void }).closeAllConnections();
      await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    },
  };
}
