// The baseline a user would write instead of the actor system: one Fastify route that scores the
// message's sentiment, moves the emotions with the same pure functions, and asks the same `openai`
// client (same retries and timeout), against the same stand-in provider, for a reply with
// the emotions in the system prompt (the product's own prompt, so that both send the same bytes) and
// the last 10 exchanges. No bus, no actors, no persistence.
import Fastify from 'fastify';
import OpenAI from 'openai';
import {
  DEFAULT_EMOTIONS,
  SECURITY_HEADERS,
  analyzeSentiment,
  chooseShape,
  processSentimentMessage,
  roundEmotions,
  systemPrompt,
  type AvatarShape,
  type Emotions,
} from 'emotion-hub';
import { reportListening } from '../lib/child.js';
import { standInBaseUrl } from '../lib/openai-stand-in.js';

type Message = { role: 'user' | 'assistant'; content: string };

const client = new OpenAI({ apiKey: 'sk-bench', baseURL: standInBaseUrl(), timeout: 30_000, maxRetries: 2 });
let emotions: Emotions = DEFAULT_EMOTIONS;
let shape: AvatarShape = 'Circle';
const history: Message[] = [];

const app = Fastify({ logger: false });
app.post('/chat', async (request, reply) => {
  const message = (request.body as { message?: unknown } | null)?.message;
  if (typeof message !== 'string' || message.trim() === '')
    return reply.code(400).headers(SECURITY_HEADERS).send({ error: 'No message provided' });
  emotions = processSentimentMessage(emotions, analyzeSentiment(message).sentiment);
  shape = chooseShape(emotions, shape);
  const completion = await client.chat.completions.create({
    model: 'bench-model',
    messages: [{ role: 'system', content: systemPrompt(emotions) }, ...history, { role: 'user', content: message }],
  });
  const response = completion.choices[0]?.message.content ?? '';
  history.push({ role: 'user', content: message }, { role: 'assistant', content: response });
  if (history.length > 20) history.splice(0, history.length - 20);
  return reply.headers(SECURITY_HEADERS).send({ response, avatar_shape: shape, emotions: roundEmotions(emotions), is_initialized: true });
});
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
reportListening(address);
