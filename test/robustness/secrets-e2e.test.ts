import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { requireBuilt } from '../support/built-cli.js';
import { serve, settledOver } from '../support/served-cli.js';
import { json, listeningProvider, type ProviderBehaviour } from '../../testkit/provider-stand-in.js';
import { modelList } from '../../testkit/provider-wire.js';
import { testDir } from '../support/test-dir.js';

// Keys a provider echoes back, as several proxies and local servers do in their error text.
const LLM_KEY = 'sk-llm-e2e-marker-7f3a';
const CHAT_KEY = 'sk-chat-e2e-marker-91c2';
const SECRETS = [LLM_KEY, CHAT_KEY];

/** The bearer token of the request, quoted the way OpenAI's own 401 does. */
const echo = (request: { headers: Record<string, unknown> }): string =>
  `Incorrect API key provided: ${String(request.headers.authorization).replace(/^Bearer /, '')}`;

/** Every stderr line is a JSON log line (or there is none): no bare warning. */
function nonJsonLines(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .filter((line) => {
      try {
        JSON.parse(line);
        return false;
      } catch {
        return true;
      }
    });
}

t.before(() => requireBuilt());

t.test('a provider that echoes the key at startup: the fatal line and stderr hold no key', async (t) => {
  const provider = await listeningProvider(t, (request) =>
    json(401, { error: { message: echo(request), type: 'invalid_request_error', code: 'invalid_api_key' } }),
  );
  const run = serve(t, { LLM_API_KEY: LLM_KEY, LLM_BASE_URL: provider.baseURL, DEBUG: '1' });
  t.equal(await run.exited, 1, 'the failed start exits 1');
  const fatal = run.lines.find((line) => line.level === 60);
  t.ok(fatal, 'a fatal line names the failure');
  t.match(String(fatal?.msg), /Incorrect API key provided: \[redacted\]/, 'the provider text is kept, the key blanked out');
  const everything = JSON.stringify(run.lines) + run.stderr();
  for (const secret of SECRETS) t.notMatch(everything, secret, 'no key in the log or on stderr');
  t.same(nonJsonLines(run.stderr()), [], 'nothing but JSON on stderr');
});

t.test('provider retries that echo the key in a chat: log, bodies and EVENT_LOG hold no key, stderr no warning', async (t) => {
  const failing: ProviderBehaviour = (request) =>
    request.url?.endsWith('/models')
      ? json(200, modelList())
      : // Retryable (500), and quick to retry: the openai client honours retry-after-ms.
        { ...json(500, { error: { message: echo(request) } }), headers: { 'retry-after-ms': '1' } };
  const provider = await listeningProvider(t, failing);
  const dir = testDir(t);
  const eventLog = join(dir, 'events.jsonl');
  const run = serve(t, {
    LLM_API_KEY: LLM_KEY,
    CHAT_API_KEY: CHAT_KEY,
    LLM_BASE_URL: provider.baseURL,
    ON_MODEL_FAILURE: 'stay',
    EVENT_LOG: eventLog,
    DEBUG: '1',
  });
  const address = await run.listening;
  t.match(await settledOver(address, 30_000), { status: 'ready' });
  const bodies: string[] = [];
  // 25 chats of three attempts each: past the 64 listeners a shared abort signal allowed before.
  for (let i = 0; i < 25; i += 1) {
    const response = await fetch(`${address}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: `hello ${i}` }),
    });
    t.equal(response.status, 502, `chat ${i}: the provider failed`);
    bodies.push(await response.text());
  }
  t.equal(provider.calls.filter((call) => call.includes('/chat/completions')).length, 75, 'each chat was tried three times');
  run.kill('SIGTERM');
  await run.exited;
  const log = readFileSync(eventLog, 'utf8');
  t.match(log, /Incorrect API key provided: \[redacted\]/, "the event log keeps the provider's words");
  for (const secret of SECRETS) {
    t.notMatch(JSON.stringify(run.lines), secret, 'no key in the log');
    t.notMatch(bodies.join('\n'), secret, 'no key in an error body');
    t.notMatch(log, secret, 'no key in the event log');
    t.notMatch(run.stderr(), secret, 'no key on stderr');
  }
  t.same(nonJsonLines(run.stderr()), [], 'no MaxListenersExceededWarning or any other bare text on stderr');
  t.notOk(
    run.lines.some((line) => String(line.msg).includes('MaxListenersExceededWarning')),
    'and no such warning in the log either: its cause is gone',
  );
});
