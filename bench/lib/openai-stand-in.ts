/**
 * How the bench's OpenAI-compatible provider answers: at once, over loopback HTTP, by a process of
 * its own (bench/servers/openai-provider.ts serves testkit's provider stand-in with this behaviour):
 * every chat server of the bench reaches it through the global fetch at `BENCH_PROVIDER_URL`, as a
 * deployment reaches its provider.
 */
import { eventStream, json, type ProviderBehaviour } from '../../testkit/provider-stand-in.js';
import { COMPLETION_END, completion, completionFrame, modelList } from '../../testkit/provider-wire.js';

/** The model the stand-in offers (bench/servers/chat.ts configures it). */
const BENCH_MODEL = 'bench-model';

/** A streamed reply's pieces, and the pause before each, as a model writes them (`BENCH_TOKENS`, `BENCH_TOKEN_MS`). */
export const STREAM_TOKENS = Number(process.env.BENCH_TOKENS ?? 30);
export const TOKEN_MS = Number(process.env.BENCH_TOKEN_MS ?? 20);

/** How long the second reader's answer takes (`BENCH_READING_MS`): a model reading one message. */
export const READING_MS = Number(process.env.BENCH_READING_MS ?? 300);

/** A chat message the stand-in answers with a model error. */
export const FAILING_MESSAGE = 'fail: the model breaks';

/** What the stand-in was asked, for the bench's cost rows: second readings, and the characters they sent. */
export const asked = { readings: 0, readingChars: 0 };

/** The second reader's answer: a valid reading, after READING_MS. */
const READING = JSON.stringify({ joy: 0.6, sadness: 0.05, anger: 0.05, fear: 0.05, curiosity: 0.15, neutral: 0.1 });

/** The bench's provider: it lists the bench model, each completion names the messages it read (streamed when asked), and it reads as the second reader. */
export const benchProvider: ProviderBehaviour = (request, body) => {
  if (request.url.endsWith('/models')) return json(200, modelList(BENCH_MODEL));
  if (!request.url.endsWith('/chat/completions')) return json(404, { error: { message: 'not found' } });
  if (body?.response_format !== undefined) {
    asked.readings += 1;
    asked.readingChars += body.messages.reduce((sum, { content }) => sum + content.length, 0);
    return new Promise((resolve) => setTimeout(() => resolve(json(200, completion(READING, body.model))), READING_MS));
  }
  // The hand-over row's failing chat: a model error ends the serving process (ON_MODEL_FAILURE=exit).
  if (body?.messages.at(-1)?.content?.startsWith(FAILING_MESSAGE)) return json(400, { error: { message: 'the model broke' } });
  if (body?.stream) return eventStream(streamedCompletion());
  return json(200, completion(`I read ${body?.messages.length ?? 0} messages. Tell me more!`, body?.model ?? BENCH_MODEL));
};

const encoder = new TextEncoder();

/** A streamed completion: STREAM_TOKENS pieces, one every TOKEN_MS, then the normal end. */
function streamedCompletion(): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull: (controller) =>
      new Promise<void>((resolve) =>
        setTimeout(() => {
          sent += 1;
          controller.enqueue(encoder.encode(completionFrame(`word${sent} `)));
          if (sent === STREAM_TOKENS) {
            controller.enqueue(encoder.encode(COMPLETION_END));
            controller.close();
          }
          resolve();
        }, TOKEN_MS),
      ),
  });
}

/** The stand-in's base URL for a bench server's openai client, from `BENCH_PROVIDER_URL` (set by bench/run.ts). */
export function standInBaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  const url = env.BENCH_PROVIDER_URL;
  if (url === undefined || url === '') throw new Error('BENCH_PROVIDER_URL is not set: run the bench with npm run bench');
  return `${url}/v1`;
}
