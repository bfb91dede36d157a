// The baseline of the feed rows: the event stream a user would write with Fastify alone: each
// listener gets the mood frame at every change (one every BENCH_DRIFT_MS, of the product's shape and
// size), written to its socket with no bound on what waits for a reader that does not read.
import Fastify from 'fastify';
import type { ServerResponse } from 'node:http';
import { reportListening } from '../lib/child.js';

const listeners = new Set<ServerResponse>();
const app = Fastify({ logger: false });
app.get('/health', async () => ({ status: 'healthy', timestamp: new Date().toISOString() }));
app.get('/api/chat/feed', (request, reply) => {
  reply.hijack();
  reply.raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
  listeners.add(reply.raw);
  request.raw.once('close', () => listeners.delete(reply.raw));
});

let tick = 0;
setInterval(
  () => {
    tick += 1;
    const value = (tick % 100) / 100;
    const body = {
      avatar_shape: 'Circle',
      emotions: { joy: value, sadness: 0.2, anger: 0.1, fear: 0.1, curiosity: 0.5 },
      sentiment: { score: 0, comparative: 0 },
      is_initialized: true,
      last_updated: new Date().toISOString(),
      status: 'ready',
    };
    const frame = `event: mood\ndata: ${JSON.stringify(body)}\n\n`;
    for (const listener of listeners) listener.write(frame);
  },
  Number(process.env.BENCH_DRIFT_MS ?? 10),
);

const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
reportListening(address);
