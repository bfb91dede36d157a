// The baseline of a streamed chat: one Fastify route that asks the same `openai` client, against the
// same stand-in provider, for a streamed reply and pipes each piece straight to the socket as an
// `event: token` frame, then `event: done`. No bus, no actors, no mood, no history.
import Fastify from 'fastify';
import OpenAI from 'openai';
import { SECURITY_HEADERS } from 'emotion-hub';
import { reportListening } from '../lib/child.js';
import { standInBaseUrl } from '../lib/openai-stand-in.js';

const client = new OpenAI({ apiKey: 'sk-bench', baseURL: standInBaseUrl(), timeout: 30_000, maxRetries: 2 });

const app = Fastify({ logger: false });
app.post('/chat', async (request, reply) => {
  const message = String((request.body as { message?: unknown } | null)?.message ?? '');
  reply.hijack();
  const socket = reply.raw;
  socket.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  socket.flushHeaders();
  const stream = await client.chat.completions.create({
    model: 'bench-model',
    messages: [{ role: 'user', content: message }],
    stream: true,
  });
  let response = '';
  for await (const chunk of stream) {
    const text = chunk.choices[0]?.delta?.content;
    if (!text) continue;
    response += text;
    socket.write(`event: token\ndata: ${JSON.stringify({ text })}\n\n`);
  }
  socket.end(`event: done\ndata: ${JSON.stringify({ response })}\n\n`);
});
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
reportListening(address);
