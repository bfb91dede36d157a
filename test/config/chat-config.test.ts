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

t.test('on a Hugging Face Space hub serve listens on 0.0.0.0 unless HOST is given', (t) => {
  t.equal(loadChatConfig({ SPACE_ID: 'julien-c/emotion-hub' }).host, '0.0.0.0');
  t.equal(loadChatConfig({ SPACE_HOST: 'julien-c-emotion-hub.hf.space' }).host, '0.0.0.0');
  t.equal(loadChatConfig({ SPACE_ID: 'julien-c/emotion-hub', HOST: '127.0.0.1' }).host, '127.0.0.1');
  t.end();
});
