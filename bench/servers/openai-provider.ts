// The stand-in provider in its own process, over loopback HTTP: the chat servers reach it through
// the global fetch when BENCH_PROVIDER_URL names it, as a deployment reaches its provider.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { reportListening } from '../lib/child.js';
import { standInAnswer, streamedCompletion, wantsStream } from '../lib/openai-stand-in.js';

const server = createServer((request, response) => {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk: string) => (body += chunk));
  request.on('end', () => {
    if (wantsStream(body)) {
      // A streamed reply's pieces as they come, the way a model writes them.
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      Readable.fromWeb(streamedCompletion() as WebReadableStream<Uint8Array>).pipe(response);
      return;
    }
    const answer = standInAnswer(new URL(request.url ?? '/', 'http://stand-in').pathname, body);
    const text = JSON.stringify(answer.body);
    response.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
  });
});
server.listen(0, '127.0.0.1', () => reportListening(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
