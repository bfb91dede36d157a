import nock from 'nock';
import OpenAI from 'openai';
import t from 'tap';
import { describeProviderError } from '../../src/providers/openai-client.js';
import { KeyValidationError, sameProvider, validateProviderKey } from '../../src/providers/validate-key.js';

const provider = { apiKey: 'sk-test-secret', baseURL: 'http://llm.test/v1', model: 'm' };

t.before(() => nock.disableNetConnect());
t.afterEach(() => nock.cleanAll());
t.teardown(() => nock.enableNetConnect());

t.test('a key the provider accepts is valid', async (t) => {
  const scope = nock('http://llm.test', { reqheaders: { authorization: 'Bearer sk-test-secret' } })
    .get('/v1/models')
    .reply(200, { object: 'list', data: [] });
  t.equal(await validateProviderKey(provider, 1000), 'key accepted');
  t.ok(scope.isDone());
});

t.test('HTTP 429 counts as a valid key, with one call (no retries)', async (t) => {
  const scope = nock('http://llm.test').get('/v1/models').once().reply(429, { error: { message: 'Rate limit reached' } });
  t.match(await validateProviderKey(provider, 1000), /429/);
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
    reply(nock('http://llm.test').get('/v1/models'));
    const error = await validateProviderKey(provider, 100).catch((e: unknown) => e);
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
