/**
 * An OpenAI-compatible provider that answers at once, served over loopback HTTP by a process of its
 * own (bench/servers/openai-provider.ts): every chat server of the bench reaches it through the
 * global fetch at `BENCH_PROVIDER_URL`, as a deployment reaches its provider.
 */

/** One answer of the stand-in: its status and JSON body. */
interface StandInAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** What the stand-in answers to a request for `pathname` with that request body ('' for none). */
export function standInAnswer(pathname: string, requestBody: string): StandInAnswer {
  if (pathname.endsWith('/models')) {
    return { status: 200, body: { object: 'list', data: [{ id: 'bench-model', object: 'model', created: 0, owned_by: 'bench' }] } };
  }
  if (pathname.endsWith('/chat/completions')) {
    const request = JSON.parse(requestBody || '{}') as { model?: string; messages?: unknown[] };
    return {
      status: 200,
      body: {
        id: 'chatcmpl-bench',
        object: 'chat.completion',
        created: 0,
        model: request.model ?? 'bench-model',
        choices: [
          {
            index: 0,
            finish_reason: 'stop',
            message: { role: 'assistant', content: `I read ${request.messages?.length ?? 0} messages. Tell me more!` },
          },
        ],
        usage: { prompt_tokens: 10, completion_tokens: 8, total_tokens: 18 },
      },
    };
  }
  return { status: 404, body: { error: { message: 'not found' } } };
}

/** A streamed reply's pieces, and the pause before each, as a model writes them (`BENCH_TOKENS`, `BENCH_TOKEN_MS`). */
export const STREAM_TOKENS = Number(process.env.BENCH_TOKENS ?? 30);
export const TOKEN_MS = Number(process.env.BENCH_TOKEN_MS ?? 20);

const encoder = new TextEncoder();
const chunkFrame = (content: string, finish: string | null): Uint8Array =>
  encoder.encode(
    `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 0, model: 'bench-model', choices: [{ index: 0, delta: { content }, finish_reason: finish }] })}\n\n`,
  );

/** Whether a completion request asks for a streamed answer (then `streamedCompletion` is the answer). */
export const wantsStream = (requestBody: string): boolean => requestBody.includes('"stream":true');

/** A streamed completion: STREAM_TOKENS pieces, one every TOKEN_MS, then the normal end. */
export function streamedCompletion(): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull: (controller) =>
      new Promise<void>((resolve) =>
        setTimeout(() => {
          sent += 1;
          controller.enqueue(chunkFrame(`word${sent} `, null));
          if (sent === STREAM_TOKENS) {
            controller.enqueue(chunkFrame('', 'stop'));
            controller.enqueue(encoder.encode('data: [DONE]\n\n'));
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
