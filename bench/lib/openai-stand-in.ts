/**
 * An OpenAI-compatible provider that answers at once, in the service's own
 * process (given to the openai client as its `fetch`), so the chat benchmark
 * measures the service, not a model or a network hop.
 */
export function openAIStandIn(): typeof fetch {
  const json = (body: unknown): Response =>
    new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.pathname.endsWith('/models')) {
      return json({ object: 'list', data: [{ id: 'bench-model', object: 'model', created: 0, owned_by: 'bench' }] });
    }
    if (url.pathname.endsWith('/chat/completions')) {
      const request = JSON.parse(String(init?.body ?? '{}')) as { model?: string; messages?: unknown[] };
      return json({
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
      });
    }
    return new Response(JSON.stringify({ error: { message: 'not found' } }), { status: 404 });
  };
}
