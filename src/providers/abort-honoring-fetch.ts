/**
 * A fetch that rejects as soon as its caller's signal aborts, whether or not the fetch beneath
 * notices. undici's `Request` follows the caller's signal through a WeakRef to its own controller;
 * once a garbage collection takes that controller, an abort no longer reaches the request, and a
 * call that never answers would outlive `LLM_TIMEOUT_MS` (and, with nothing else scheduled, the
 * process). The `openai` client's deadline aborts this signal, so here the deadline always holds.
 * `fetch` is looked up at each call when not given, so a fetch patched later (nock) is the one used.
 */
export function abortHonoringFetch(fetch?: typeof globalThis.fetch): typeof globalThis.fetch {
  return (input, init) => {
    const call = (fetch ?? globalThis.fetch)(input, init);
    const signal = init?.signal;
    if (!signal) return call;
    return new Promise<Response>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
      call.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  };
}
