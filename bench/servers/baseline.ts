// The baseline: a bare Fastify server, no logger, no hooks, answering fixed JSON of the same shape and
// size as the product's answers, with the same headers, so that a ratio measures the
// product's own work and not how many bytes the load generator has to read.
import Fastify from 'fastify';
import { SECURITY_HEADERS as sameHeaders } from 'emotion-hub';
import { reportListening } from '../lib/child.js';

const app = Fastify({ logger: false });
const avatar = {
  avatar_shape: 'Circle',
  emotions: { joy: 0.5, sadness: 0.2, anger: 0.1, fear: 0.1, curiosity: 0.5 },
  sentiment: { sentiment: 'neutral', positive: 0, negative: 0 },
  is_initialized: true,
  last_updated: '2026-11-21T00:00:00.000Z',
  status: 'ready',
};
const health = { status: 'healthy', timestamp: '2026-11-21T00:00:00.000Z' };
app.get('/avatar', async (_request, reply) => reply.headers(sameHeaders).send(avatar));
app.get('/health', async (_request, reply) => reply.headers(sameHeaders).send(health));
// The chat service sends the security headers on every answer; the receiving server sends none.
// (Chat has its own baseline, chat-direct.ts: a bare POST would measure the model client, not the service.)
app.post('/echo', async (request) => ({ received: typeof request.body }));
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
reportListening(address);
