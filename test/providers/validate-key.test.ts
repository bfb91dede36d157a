import nock from 'nock';
import OpenAI from 'openai';
import t from 'tap';
import { describeProviderError } from '../../src/providers/openai-client.js';
import { KeyValidationError, sameProvider, validateProviderKey } from '../../src/providers/validate-key.js';
import { MOCKED_BASE_URL, mockProviderHttp, mockedProvider } from '../../testkit/provider-nock.js';

const provider = { apiKey: 'sk-test-secret', baseURL: 'http://llm.test/v1', model: 'm' };

mockProviderHttp(t);

const models = (...ids: string[]) => ({
  object: 'list',
  data: ids.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'system' })),
});

t.test('a key the provider accepts is valid when it offers the configured models', async (t) => {
  const scope = mockedProvider(MOCKED_BASE_URL, { reqheaders: { authorization: 'Bearer sk-test-secret' } })
    .models()
    .reply(200, models('m', 'gpt-4o-mini', 'other'));
  t.same(await validateProviderKey(provider, ['m', 'gpt-4o-mini'], 1000), { detail: 'key accepted, model m, gpt-4o-mini offered' });
  t.ok(scope.isDone());
});

t.test('a model the provider does not offer fails, naming the model, the base URL and up to 10 models offered', async (t) => {
  const offered = Array.from({ length: 12 }, (_, i) => `llama3.${i}`);
  mockedProvider()
    .models()
    .reply(200, models(...offered));
  const error = await validateProviderKey(provider, ['gpt-4o-mini'], 1000).catch((e: unknown) => e);
  t.type(error, KeyValidationError);
  t.equal(
    (error as Error).message,
    'model "gpt-4o-mini" is not offered by http://llm.test/v1: it offers llama3.0, llama3.1, llama3.2, llama3.3, llama3.4, llama3.5, llama3.6, llama3.7, llama3.8, llama3.9 and 2 more',
  );
  mockedProvider().models().reply(200, models());
  t.match(await validateProviderKey(provider, ['m'], 1000).catch((e: Error) => e.message), /"m" is not offered.*it lists no models/);
});

t.test('model names: name and name:latest are the same model at the startup check', async (t) => {
  // Ollama lists `llama3.2:latest` for `ollama pull llama3.2`; users configure either.
  mockedProvider().models().reply(200, models('llama3.2:latest', 'qwen2.5'));
  t.same(await validateProviderKey(provider, ['llama3.2', 'qwen2.5:latest'], 1000), {
    detail: 'key accepted, model llama3.2, qwen2.5:latest offered',
  });
  mockedProvider().models().reply(200, models('llama3.2:latest', 'llama3.2:1b'));
  const error = await validateProviderKey(provider, ['llama3.2:3b'], 1000).catch((e: Error) => e.message);
  t.match(error, /"llama3.2:3b" is not offered/, 'another tag is another model');
  mockedProvider().models().reply(200, models('llama3.2:1b'));
  t.match(
    await validateProviderKey(provider, ['llama3.2'], 1000).catch((e: Error) => e.message),
    /"llama3.2" is not offered/,
    'only :latest is implied',
  );
});

t.test('credentials in the base URL never reach the message', async (t) => {
  const message = await validateProviderKey({ ...provider, baseURL: 'http://user:sk-in-url@llm.test/v1' }, ['m'], 1000).catch(
    (e: Error) => e.message,
  );
  t.match(message, /^listing models at http:\/\/llm\.test\/v1 failed: cannot connect/);
  t.notMatch(message, /sk-in-url|user:/);
});

t.test('HTTP 429 counts as a valid key, with one call (no retries), the models unchecked', async (t) => {
  const scope = mockedProvider()
    .models()
    .once()
    .reply(429, { error: { message: 'Rate limit reached' } });
  t.match(await validateProviderKey(provider, ['m'], 1000), { detail: /429/, modelsUnchecked: /HTTP 429/ });
  t.ok(scope.isDone());
});

t.test('401, 403, 500, connection errors and timeouts fail, saying why and never the key', async (t) => {
  const cases: [(scope: nock.Interceptor) => nock.Scope, RegExp][] = [
    [(i) => i.reply(401, { error: { message: 'Incorrect API key provided' } }), /HTTP 401.*Incorrect API key/],
    [(i) => i.reply(403, { error: { message: 'forbidden' } }), /HTTP 403/],
    [(i) => i.reply(500, { error: { message: 'boom' } }, { 'x-request-id': 'req_1' }), /HTTP 500.*request id req_1/],
    [(i) => i.delay(300).reply(200, { data: [] }), /timed out/],
    [(i) => i.replyWithError('socket hang up'), /cannot connect/],
  ];
  for (const [reply, pattern] of cases) {
    reply(mockedProvider().models());
    const error = await validateProviderKey(provider, ['m'], 100).catch((e: unknown) => e);
    t.type(error, KeyValidationError);
    t.match((error as Error).message, pattern);
    t.match((error as Error).message, /listing models at http:\/\/llm.test\/v1/);
    t.notMatch((error as Error).message, /sk-test-secret/);
    nock.cleanAll();
  }
});

t.test('other errors are described by their message', (t) => {
  t.equal(describeProviderError(new Error('plain')), 'plain');
  t.equal(describeProviderError('text'), 'text');
  t.match(describeProviderError(new OpenAI.APIConnectionError({ message: 'down' })), /cannot connect \(down\)/);
  t.end();
});

t.test('providers are the same when key and base URL are', (t) => {
  t.ok(sameProvider(provider, { ...provider, model: 'other' }));
  t.notOk(sameProvider(provider, { ...provider, apiKey: 'sk-other' }));
  t.notOk(sameProvider(provider, { ...provider, baseURL: undefined }));
  t.end();
});
