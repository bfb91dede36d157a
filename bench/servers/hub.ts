// A hub that holds no webhooks, for the CLI cold start (`hub webhooks ls` lists them): the CLI's own
// start is what that row measures, not the hub.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { reportListening } from '../lib/child.js';

const server = createServer((request, response) => {
  const listing = request.method === 'GET' && request.url?.split('?')[0] === '/api/settings/webhooks';
  const body = listing ? '[]' : '{"error":"not found"}';
  response.writeHead(listing ? 200 : 404, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
});
server.listen(0, '127.0.0.1', () => reportListening(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
