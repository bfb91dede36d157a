import t from 'tap';
import { ConfigError, DEFAULT_MODEL, loadChatConfig } from '../../src/config/chat-config.js';

t.test('defaults follow the contract', (t) => {
  const config = loadChatConfig({});
  t.match(config, {
    port: 7860,
    host: '127.0.0.1',
    primary: { apiKey: undefined, baseURL: undefined, model: DEFAULT_MODEL },
    secondary: { apiKey: undefined, baseURL: undefined, model: DEFAULT_MODEL },
    emotionsFile: './emotions.json',
    eventLog: undefined,
    debug: true,
    driftIntervalMs: 10_000,
    maxMessageLength: 4000,
    providerTimeoutMs: 30_000,
  });
  t.end();
});

t.test('LOG_REQUESTS: off by default, on with 1/true/on/yes, anything else refused with its value', (t) => {
  t.equal(loadChatConfig({}).logRequests, false);
  for (const value of ['1', 'true', 'ON', 'yes']) t.equal(loadChatConfig({ LOG_REQUESTS: value }).logRequests, true, value);
  for (const value of ['0', 'false', 'off', 'no', ' ']) t.equal(loadChatConfig({ LOG_REQUESTS: value }).logRequests, false, value);
  t.throws(
    () => loadChatConfig({ LOG_REQUESTS: 'loud' }),
    new ConfigError('LOG_REQUESTS must be 1 or 0 (true/false, on/off, yes/no), got "loud"'),
  );
  t.end();
});

t.test('CHAT_* fall back to LLM_* one by one; blank values count as unset', (t) => {
  const config = loadChatConfig({
    LLM_API_KEY: 'sk-primary',
    LLM_BASE_URL: 'http://127.0.0.1:11434/v1',
    LLM_MODEL: 'llama3',
    CHAT_MODEL: 'qwen2',
    CHAT_API_KEY: '   ',
    PORT: '8080',
    HOST: '0.0.0.0',
    DEBUG: 'false',
    EVENT_LOG: 'events.jsonl',
    DRIFT_INTERVAL_MS: '250',
  });
  t.same(config.secondary, { apiKey: 'sk-primary', baseURL: 'http://127.0.0.1:11434/v1', model: 'qwen2' });
  t.match(config, { port: 8080, host: '0.0.0.0', debug: false, eventLog: 'events.jsonl', driftIntervalMs: 250 });
  t.end();
});

t.test('unusable values are errors that name the variable', (t) => {
  t.throws(() => loadChatConfig({ PORT: 'eighty' }), new ConfigError('PORT must be a whole number from 0 to 65535, got "eighty"'));
  t.throws(() => loadChatConfig({ PORT: '70000' }), ConfigError);
  t.throws(() => loadChatConfig({ DRIFT_INTERVAL_MS: '0' }), /DRIFT_INTERVAL_MS/);
  t.throws(() => loadChatConfig({ MAX_MESSAGE_LENGTH: '-5' }), /MAX_MESSAGE_LENGTH/);
  t.throws(() => loadChatConfig({ LLM_BASE_URL: 'ftp://example.com' }), /LLM_BASE_URL must be an http\(s\) URL/);
  t.throws(() => loadChatConfig({ CHAT_BASE_URL: 'not a url' }), /CHAT_BASE_URL/);
  t.end();
});

t.test('visitors: MAX_SESSIONS, SESSION_IDLE_MS, ON_MODEL_FAILURE and TRUST_PROXY', (t) => {
  t.match(loadChatConfig({}), { maxSessions: 10_000, sessionIdleMs: 1_800_000, onModelFailure: 'exit', trustProxy: false });
  t.match(loadChatConfig({ MAX_SESSIONS: '50', SESSION_IDLE_MS: '60000', ON_MODEL_FAILURE: 'Stay' }), {
    maxSessions: 50,
    sessionIdleMs: 60_000,
    onModelFailure: 'stay',
  });
  t.equal(loadChatConfig({ TRUST_PROXY: 'true' }).trustProxy, true);
  t.equal(loadChatConfig({ TRUST_PROXY: 'false' }).trustProxy, false);
  t.equal(loadChatConfig({ TRUST_PROXY: '127.0.0.1,10.0.0.0/8' }).trustProxy, '127.0.0.1,10.0.0.0/8');
  const hops = loadChatConfig({ TRUST_PROXY: '1' }).trustProxy as (address: string, hop: number) => boolean;
  t.same([hops('10.0.0.1', 0), hops('10.0.0.2', 1)], [true, false], 'a number trusts that many hops');
  t.throws(() => loadChatConfig({ ON_MODEL_FAILURE: 'retry' }), new ConfigError('ON_MODEL_FAILURE must be one of exit, stay, got "retry"'));
  t.throws(() => loadChatConfig({ MAX_SESSIONS: '0' }), /MAX_SESSIONS must be a whole number from 1/);
  t.throws(() => loadChatConfig({ SESSION_IDLE_MS: 'soon' }), /SESSION_IDLE_MS/);
  t.equal(loadChatConfig({}).maxSessionBytes, 64 * 2 ** 20, 'MAX_SESSION_BYTES: 64 MiB by default');
  t.equal(loadChatConfig({ MAX_SESSION_BYTES: '1048576' }).maxSessionBytes, 1_048_576);
  t.throws(() => loadChatConfig({ MAX_SESSION_BYTES: '100' }), /MAX_SESSION_BYTES must be a whole number from 1024/);
  t.end();
});

t.test('a bad base URL is named without the credentials it carries', (t) => {
  const error = (() => {
    try {
      return loadChatConfig({ LLM_BASE_URL: 'ftp://user:sk-secret@host/v1' });
    } catch (caught) {
      return caught as Error;
    }
  })() as Error;
  t.equal(error.message, 'LLM_BASE_URL must be an http(s) URL, got "ftp://host/v1"');
  t.throws(
    () => loadChatConfig({ LLM_BASE_URL: '127.0.0.1:11434/v1' }),
    new ConfigError('LLM_BASE_URL must be an http(s) URL, got "127.0.0.1:11434/v1"'),
    'a value that cannot hold credentials is shown as written',
  );
  t.throws(
    () => loadChatConfig({ REDIS_URL: 'localhost:6379' }),
    new ConfigError('REDIS_URL must be a redis:// or rediss:// URL, got "localhost:6379"'),
  );
  t.end();
});

t.test('REDIS_URL makes the process a replica; REDIS_PREFIX and DRIFT_LEASE_MS tune it', (t) => {
  t.equal(loadChatConfig({}).redis, undefined, 'unset: one process alone');
  t.same(loadChatConfig({ REDIS_URL: 'redis://127.0.0.1:6379/0' }).redis, {
    url: 'redis://127.0.0.1:6379/0',
    prefix: 'emotion-hub:',
    driftLeaseMs: 15_000,
  });
  t.same(loadChatConfig({ REDIS_URL: 'rediss://:pw@cache.internal:6380/2', REDIS_PREFIX: 'staging:', DRIFT_LEASE_MS: '2000' }).redis, {
    url: 'rediss://:pw@cache.internal:6380/2',
    prefix: 'staging:',
    driftLeaseMs: 2000,
  });
  t.throws(
    () => loadChatConfig({ REDIS_URL: 'http://:hunter2@127.0.0.1:6379' }),
    new ConfigError('REDIS_URL must be a redis:// or rediss:// URL, got "http://127.0.0.1:6379"'),
    'a wrong URL is named without its password',
  );
  t.throws(() => loadChatConfig({ REDIS_URL: 'redis://127.0.0.1', DRIFT_LEASE_MS: '5' }), /DRIFT_LEASE_MS must be a whole number from 100/);
  t.end();
});

t.test('on a Hugging Face Space hub serve listens on 0.0.0.0 unless HOST is given', (t) => {
  t.equal(loadChatConfig({ SPACE_ID: 'julien-c/emotion-hub' }).host, '0.0.0.0');
  t.equal(loadChatConfig({ SPACE_HOST: 'julien-c-emotion-hub.hf.space' }).host, '0.0.0.0');
  t.equal(loadChatConfig({ SPACE_ID: 'julien-c/emotion-hub', HOST: '127.0.0.1' }).host, '127.0.0.1');
  t.end();
});

t.test('a URL whose credentials hold an unencoded #, /, ? or @ is refused without being shown', (t) => {
  const cases = [
    ['REDIS_URL', 'redis://:zqa#1@127.0.0.1:6379/0', 'zqa'],
    ['REDIS_URL', 'redis://zqu/ser:zqb?2@127.0.0.1:6379', 'zqb'],
    ['LLM_BASE_URL', 'http://user:zqc#3@127.0.0.1:1/v1', 'zqc'],
    ['LLM_BASE_URL', 'http://zqu/ser:zqd?4@127.0.0.1:1/v1', 'zqd'],
    ['CHAT_BASE_URL', 'https://u:zqe/b@c-5@host/v1', 'zqe'],
  ] as const;
  for (const [name, value, secret] of cases) {
    const error = t.throws(() => loadChatConfig({ [name]: value }), ConfigError, value) as Error;
    t.match(error.message, name);
    t.notMatch(error.message, secret, `${name}: no part of the credentials is printed`);
    t.notMatch(error.message, 'zqu');
  }
  t.equal(
    loadChatConfig({ REDIS_URL: 'redis://:p@ss@127.0.0.1:6379/0' }).redis?.url,
    'redis://:p@ss@127.0.0.1:6379/0',
    'an @ that parses is kept',
  );
  t.end();
});

t.test('FRAME_ANCESTORS: space-separated origins; a Space adds https://huggingface.co; none by default', (t) => {
  t.same(loadChatConfig({}).frameAncestors, []);
  t.equal(loadChatConfig({}).onSpace, false);
  t.same(loadChatConfig({ SPACE_ID: 'julien-c/emotion-hub' }).frameAncestors, ['https://huggingface.co']);
  t.equal(loadChatConfig({ SPACE_ID: 'julien-c/emotion-hub' }).onSpace, true);
  t.same(loadChatConfig({ FRAME_ANCESTORS: ' https://example.com  http://127.0.0.2:8080/ ' }).frameAncestors, [
    'https://example.com',
    'http://127.0.0.2:8080',
  ]);
  t.same(loadChatConfig({ SPACE_ID: 'a/b', FRAME_ANCESTORS: 'https://huggingface.co https://hf.co' }).frameAncestors, [
    'https://huggingface.co',
    'https://hf.co',
  ]);
  for (const bad of ['example.com', 'ftp://example.com', 'https://example.com/page', "'self'", 'https://a.com;script-src']) {
    t.throws(
      () => loadChatConfig({ FRAME_ANCESTORS: bad }),
      new ConfigError(`FRAME_ANCESTORS must be space-separated origins such as https://example.com, got "${bad}"`),
    );
  }
  t.end();
});

t.test('EMOTION_HUB_KEY_CHECKED=1 (set by the supervisor on a restart) marks the key as checked before', async (t) => {
  t.equal(loadChatConfig({}).keyCheckedBefore, false);
  t.equal(loadChatConfig({ EMOTION_HUB_KEY_CHECKED: '1' }).keyCheckedBefore, true);
});

t.test('SESSION_SECRET: 31 characters are refused, naming the 32-character minimum and never the value; 32 are taken', (t) => {
  const short = 'k7Qx2Lm9Pz4Rt8Vw1Ys5Nb3Hc6Jd0Fg'.slice(0, 31);
  t.equal(short.length, 31);
  const error = t.throws(() => loadChatConfig({ SESSION_SECRET: short })) as Error;
  t.type(error, ConfigError);
  t.equal(error.message, 'SESSION_SECRET must be at least 32 characters long (openssl rand -base64 32 makes one)');
  t.notMatch(error.message, short.slice(0, 8), 'no part of the value');
  t.equal(loadChatConfig({ SESSION_SECRET: `${short}a` }).sessionSecret, `${short}a`, '32 characters are enough');
  t.end();
});

t.test('the second reader: APPRAISAL, APPRAISAL_MODEL (default LLM_MODEL), APPRAISAL_WAIT_MS (default 500)', (t) => {
  t.same(loadChatConfig({}).appraisal, { source: 'local', model: 'gpt-4o-mini', waitMs: 500 });
  t.same(loadChatConfig({ APPRAISAL: 'Model', LLM_MODEL: 'llama3.2' }).appraisal, { source: 'model', model: 'llama3.2', waitMs: 500 });
  t.same(loadChatConfig({ APPRAISAL: 'model', APPRAISAL_MODEL: 'small', APPRAISAL_WAIT_MS: '0' }).appraisal, {
    source: 'model',
    model: 'small',
    waitMs: 0,
  });
  t.throws(() => loadChatConfig({ APPRAISAL: 'bert' }), new ConfigError('APPRAISAL must be one of local, model, got "bert"'));
  t.throws(() => loadChatConfig({ APPRAISAL_WAIT_MS: '-1' }), { message: /^APPRAISAL_WAIT_MS must be a whole number/ });
  t.end();
});
