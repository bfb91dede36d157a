/**
 * An OpenAI-compatible provider that answers at once. By default it lives in the service's own
 * process (given to the openai client as its `fetch`), so the chat benchmark measures the service,
 * not a model or a network hop. With `BENCH_PROVIDER_URL` set, both chat servers talk instead to
 * the same answers served over loopback HTTP by another process (bench/servers/openai-provider.ts),
 * through the global fetch, as a deployment talks to its provider.
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

/** A streamed completion: STREAM_TOKENS pieces, one every TOKEN_MS, then the normal end. */
function streamedCompletion(): ReadableStream<Uint8Array> {
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

export function openAIStandIn(): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const request = String(init?.body ?? '');
    if (request.includes('"stream":true')) {
      return new Response(streamedCompletion(), { status: 200, headers: { 'content-type': 'text/event-stream' } });
    }
    const { status, body } = standInAnswer(url.pathname, request);
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  };
}

/** Where a bench server's openai client sends its calls: the stand-in process named by `BENCH_PROVIDER_URL`, or the in-process one. */
export function standInProvider(): { readonly baseURL: string; readonly fetch?: typeof fetch } {
  const url = process.env.BENCH_PROVIDER_URL;
  return url === undefined || url === '' ? { baseURL: 'http://llm.bench.invalid/v1', fetch: openAIStandIn() } : { baseURL: `${url}/v1` };
}
