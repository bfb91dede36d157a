import t from 'tap';
import { MIN_SECRET_LENGTH, REDACTED, Redactor } from '../../src/runtime/secrets.js';
import { displayUrl, HIDDEN_URL, urlPasswords, urlWithoutQuery, withoutCredentials } from '../../src/runtime/url-credentials.js';
import { capturedLogger } from '../support/captured-logger.js';
import { createLogger } from '../../src/runtime/logger.js';
import { Writable } from 'node:stream';

t.test('every secret of the environment is blanked out wherever it sits in a text', (t) => {
  const redactor = Redactor.fromEnv({
    LLM_API_KEY: 'sk-llm-key-1',
    CHAT_API_KEY: 'sk-chat-key-2',
    WEBHOOK_SECRET: 'whsec-3',
    HF_TOKEN: 'hf_token_4',
    SESSION_SECRET: 'session-secret-5',
    REDIS_URL: 'redis://:r%2Fp%40ss@127.0.0.1:6379/0',
    LLM_BASE_URL: 'http://user:base-pass@127.0.0.1:1/v1',
    LLM_MODEL: 'gpt-4o-mini',
  });
  const text =
    'Incorrect API key provided: sk-llm-key-1; chat sk-chat-key-2, whsec-3, hf_token_4, session-secret-5, redis r/p@ss and r%2Fp%40ss, base-pass';
  const redacted = redactor.redact(text);
  for (const secret of [
    'sk-llm-key-1',
    'sk-chat-key-2',
    'whsec-3',
    'hf_token_4',
    'session-secret-5',
    'r/p@ss',
    'r%2Fp%40ss',
    'base-pass',
  ]) {
    t.notMatch(redacted, secret, `${secret} is gone`);
  }
  t.match(redacted, `Incorrect API key provided: ${REDACTED}`, 'the rest of the text stays');
  t.equal(redactor.redact('gpt-4o-mini'), 'gpt-4o-mini', 'what is not a secret is kept');
  t.end();
});

t.test('a secret is blanked out as JSON escapes it, and one that contains another goes whole', (t) => {
  const redactor = new Redactor(['ab"cd\\ef', 'longer-secret', 'secret']);
  t.equal(redactor.redact(JSON.stringify({ msg: 'key ab"cd\\ef' })), `{"msg":"key ${REDACTED}"}`);
  t.equal(redactor.redact('a longer-secret'), `a ${REDACTED}`);
  t.equal(new Redactor(['x'.repeat(MIN_SECRET_LENGTH - 1)]).redact('xxx'), 'xxx', 'a too short value is not a secret to look for');
  t.end();
});

t.test('the logger blanks out a secret a message or any field quotes, and one added later', (t) => {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const redactor = new Redactor(['sk-provider-echo']);
  const logger = createLogger({ debug: true, destination, redactor });
  logger.error({ reason: 'HTTP 401: Incorrect API key provided: sk-provider-echo' }, 'provider said sk-provider-echo');
  redactor.add('generated-session-secret');
  logger.info({ nested: { deep: ['generated-session-secret'] } }, 'later');
  const text = chunks.join('');
  t.notMatch(text, 'sk-provider-echo');
  t.notMatch(text, 'generated-session-secret');
  t.equal(text.split('\n').filter(Boolean).length, 2, 'still two JSON lines');
  for (const line of text.split('\n').filter(Boolean)) t.doesNotThrow(() => JSON.parse(line));
  t.ok(capturedLogger().logger, 'the test logger builds with the default redactor');
  t.end();
});

t.test('URL credentials are removed by parsing; a URL that does not parse cleanly is not shown', (t) => {
  t.equal(displayUrl('http://user:key@127.0.0.1:1/v1'), 'http://127.0.0.1:1/v1');
  t.equal(displayUrl('redis://:p@ss@127.0.0.1:6379/0'), 'redis://127.0.0.1:6379/0', 'the last @ ends the userinfo');
  t.equal(displayUrl('redis://:pa#ss@127.0.0.1:6379/0'), HIDDEN_URL, 'a # in the password: does not parse');
  t.equal(displayUrl('redis://us/er:pa?ss@127.0.0.1:6379'), HIDDEN_URL, 'a / and ? in the userinfo: an @ left past the host');
  t.equal(displayUrl('http://u:k#ey@127.0.0.1:1/v1'), HIDDEN_URL);
  t.equal(displayUrl('huggingface.co'), 'huggingface.co', 'no @, no credentials: shown as written');
  t.equal(displayUrl('user:key@huggingface.co'), HIDDEN_URL, 'an @ that does not parse: not shown');
  t.equal(
    withoutCredentials('cannot connect (http://u:sk-1@127.0.0.1:1/v1) then redis://:pa#ss@h:1 and http://127.0.0.1:2/v1'),
    `cannot connect (http://127.0.0.1:1/v1) then ${HIDDEN_URL} and http://127.0.0.1:2/v1`,
  );
  t.same(urlPasswords('redis://:r%2Fp%40ss@127.0.0.1:6379'), ['r%2Fp%40ss', 'r/p@ss']);
  t.same(urlPasswords('redis://127.0.0.1:6379'), []);
  t.end();
});

t.test('a webhook target is shown by its origin and path: no credentials, no query, nothing for a text that is no URL', (t) => {
  t.equal(urlWithoutQuery('http://user:pw@127.0.0.1:3000/hook?token=hf_abc&x=1#f'), 'http://127.0.0.1:3000/hook');
  t.equal(urlWithoutQuery(new URL('https://example.com/a/b?sig=s3')), 'https://example.com/a/b');
  t.equal(urlWithoutQuery('not a url ?token=hf_abc'), HIDDEN_URL);
  t.end();
});

t.test('a secret is blanked out as a whole token only: inside another word it is left alone', (t) => {
  const redactor = new Redactor(['fake', 'sk-abc123']);
  t.equal(redactor.redact('model fake-model offered; key fake'), `model fake-model offered; key ${REDACTED}`);
  t.equal(redactor.redact('unfaked, fakes, fake_news'), 'unfaked, fakes, fake_news');
  t.equal(
    redactor.redact('Bearer sk-abc123, "sk-abc123", key=sk-abc123&x, (sk-abc123).'),
    `Bearer ${REDACTED}, "${REDACTED}", key=${REDACTED}&x, (${REDACTED}).`,
  );
  t.equal(redactor.redact('sk-abc1234 is another key'), 'sk-abc1234 is another key');
  t.end();
});
