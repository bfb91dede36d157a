// What an OpenAI-compatible provider writes: the bodies and event-stream frames every provider
// stand-in of the tests and the bench answers with, and that nock replies with.

/** The model a stand-in offers unless told otherwise: the service's default (test/testkit pins the two equal). */
export const OFFERED_MODEL = 'gpt-4o-mini';

/** A provider's answer to `GET /models`: by default it offers the service's default model. */
export function modelList(...ids: string[]): object {
  const offered = ids.length === 0 ? [OFFERED_MODEL] : ids;
  return { object: 'list', data: offered.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'system' })) };
}

/** A whole (not streamed) chat completion saying `content`. */
export function completion(content: string | null, model = OFFERED_MODEL): object {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1_790_000_000,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null }],
  };
}

/** One chunk of a streamed completion, as `data:` of the provider's event stream carries it. */
export function completionChunk(content: string, finishReason: string | null = null): object {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1_790_000_000,
    model: OFFERED_MODEL,
    choices: [{ index: 0, delta: { content }, finish_reason: finishReason, logprobs: null }],
  };
}

/** A streamed completion's event-stream frame for one piece (what an OpenAI-compatible server writes). */
export function completionFrame(content: string): string {
  return `data: ${JSON.stringify(completionChunk(content))}\n\n`;
}

/** The frames that end a streamed completion normally. */
export const COMPLETION_END = `data: ${JSON.stringify(completionChunk('', 'stop'))}\n\ndata: [DONE]\n\n`;

/** A whole streamed completion, its pieces then its normal end. */
export function completionStream(...pieces: string[]): string {
  return pieces.map(completionFrame).join('') + COMPLETION_END;
}
