// The stand-in provider in its own process, over loopback HTTP: the chat servers reach it through
// the global fetch when BENCH_PROVIDER_URL names it, as a deployment reaches its provider.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { reportListening } from '../lib/child.js';
import { standInAnswer } from '../lib/openai-stand-in.js';

const server = createServer((request, response) => {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk: string) => (body += chunk));
  request.on('end', () => {
    const answer = standInAnswer(new URL(request.url ?? '/', 'http://stand-in').pathname, body);
    const text = JSON.stringify(answer.body);
    response.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
  });
});
server.listen(0, '127.0.0.1', () => reportListening(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
