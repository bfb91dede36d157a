// Completions whose event stream the test writes itself, piece by piece, to watch a reply while it
// is under way. (Not nock: nock, and its interception of the test's own fetch, hand a streamed body
// over only once it has ended.)
import { PassThrough, Readable } from 'node:stream';
import { eventStream, offering, providerStandIn, type ChatCompletionBody } from './provider-stand-in.js';

const asWebStream = (stream: PassThrough) => Readable.toWeb(stream) as unknown as ReadableStream<Uint8Array>;

/**
 * Every completion streams what the test writes to the one `body`; `aborted` resolves when the
 * service aborts a call; `completions()` counts the calls made.
 */
export function heldProvider() {
  const body = new PassThrough();
  let abort: () => void = () => undefined;
  const aborted = new Promise<void>((resolve) => (abort = resolve));
  const provider = providerStandIn(
    offering((request) => {
      request.signal.addEventListener('abort', () => {
        abort();
        body.destroy();
      });
      return eventStream(asWebStream(body));
    }),
  );
  return { body, aborted, fetch: provider.fetch, completions: () => provider.prompts.length };
}

/**
 * Every completion call streams what the test writes to its own body (`calls[i].body`), beside the
 * messages it was sent; `provider` serves the same on a loopback port for a service in another process.
 */
export function heldCalls() {
  const calls: { readonly body: PassThrough; readonly messages: ChatCompletionBody['messages'] }[] = [];
  const provider = providerStandIn(
    offering((request, sent) => {
      const body = new PassThrough();
      calls.push({ body, messages: sent?.messages ?? [] });
      request.signal.addEventListener('abort', () => body.destroy());
      return eventStream(asWebStream(body));
    }),
  );
  return { calls, fetch: provider.fetch, provider };
}
