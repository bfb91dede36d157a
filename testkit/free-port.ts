import { createServer, type AddressInfo } from 'node:net';

/**
 * A free loopback port: bound by the OS, then released for a server to take. Given a `port`, it
 * binds that one, so it rejects (EADDRINUSE) while something still listens there.
 */
export async function freePort(port = 0): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return bound;
}
