import OpenAI from 'openai';
import t from 'tap';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { abortHonoringFetch } from '../../src/providers/abort-honoring-fetch.js';
import { createProviderClient } from '../../src/providers/openai-client.js';
import { mockProviderHttp, mockedProvider } from '../../testkit/provider-nock.js';

// A collection between the call and its deadline is what broke the link from the caller's signal to
// undici's request: forced here, so the case does not depend on the machine's memory pressure.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

mockProviderHttp(t);

const neverAnswers = () =>
  mockedProvider()
    .models()
    .reply(() => new Promise<never>(() => undefined));

// Without the guard this case hangs: bounded well below tap's per-file limit.
t.test('an abort rejects the call even when the fetch beneath never notices it', { timeout: 30_000 }, async (t) => {
  // What undici does once a collection has cut the request from the caller's signal: nothing.
  const deaf: typeof globalThis.fetch = () => new Promise<never>(() => undefined);
  const controller = new AbortController();
  const call = abortHonoringFetch(deaf)('http://llm.test/v1/models', { signal: controller.signal });
  controller.abort();
  await t.rejects(call, { name: 'AbortError' });
});

t.test('a signal aborted before the call rejects it at once', async (t) => {
  neverAnswers();
  await t.rejects(abortHonoringFetch()('http://llm.test/v1/models', { signal: AbortSignal.abort() }), { name: 'AbortError' });
});

t.test('an answer passes through unchanged, and the fetch given is the one called', async (t) => {
  const seen: string[] = [];
  const fetch: typeof globalThis.fetch = async (input) => {
    seen.push(String(input));
    return new Response('{"ok":true}', { status: 201 });
  };
  const response = await abortHonoringFetch(fetch)('http://llm.test/x', { signal: new AbortController().signal });
  t.equal(response.status, 201);
  t.same(await response.json(), { ok: true });
  t.same(seen, ['http://llm.test/x']);
  const failing: typeof globalThis.fetch = () => Promise.reject(new TypeError('fetch failed'));
  await t.rejects(abortHonoringFetch(failing)('http://llm.test/x', { signal: new AbortController().signal }), { message: 'fetch failed' });
});

// Without the guard this case hangs: bounded well below tap's per-file limit.
t.test('the provider client times out on time against a provider that never answers, collection or not', { timeout: 30_000 }, async (t) => {
  neverAnswers();
  const client = createProviderClient({ apiKey: 'sk-test', baseURL: 'http://llm.test/v1', model: 'm' }, { timeoutMs: 200, maxRetries: 0 });
  // The client reaches fetch a few turns after the call: collections keep coming until the deadline.
  const collections = setInterval(collectGarbage, 10);
  t.teardown(() => clearInterval(collections));
  t.type(await client.get('/models').catch((error: unknown) => error), OpenAI.APIConnectionTimeoutError);
});
