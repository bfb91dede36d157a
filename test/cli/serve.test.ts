import t from 'tap';
import { serve, settledOver } from '../support/served-cli.js';
import { modelList } from '../../testkit/provider-wire.js';
import { json, listeningProvider } from '../../testkit/provider-stand-in.js';
import { testDir } from '../support/test-dir.js';

t.test('a bad PORT is a clear message on stderr and exit 1', async (t) => {
  const run = serve(t, { PORT: 'http' });
  t.equal(await run.exited, 1);
  t.match(run.stderr(), /PORT must be a whole number from 0 to 65535, got "http"/);
  t.same(run.lines, [], 'nothing started');
});

t.test('a 31-character SESSION_SECRET stops hub serve at start: the 32-character minimum is named, the value never', async (t) => {
  const secret = 'Zq8Wv3Lp6Tn1Xr4Kc7Mh2Bd5Gf9Js0A';
  t.equal(secret.length, 31);
  const run = serve(t, { SESSION_SECRET: secret });
  // Either way it ends in seconds: a secret wrongly taken shows as listening, not as a hang.
  t.equal(
    await Promise.race([
      run.exited,
      run.listening.then(
        () => 'listening',
        () => run.exited,
      ),
    ]),
    1,
  );
  t.match(run.stderr(), /SESSION_SECRET must be at least 32 characters long/);
  t.notMatch(run.stderr() + JSON.stringify(run.lines), secret.slice(0, 8), 'no part of the secret in the output');
  t.same(run.lines, [], 'nothing started');
});

t.test('an event log that cannot be opened is a clear message and exit 1', async (t) => {
  const run = serve(t, { EVENT_LOG: testDir(t) });
  t.equal(await run.exited, 1);
  t.match(run.stderr(), /EVENT_LOG: cannot open/);
});

t.test('without a key it serves the page and explains the key; SIGTERM stops it with exit 0', async (t) => {
  const run = serve(t, { DEBUG: '0' });
  const address = await run.listening;
  const state = await settledOver(address);
  t.match(state, { missing_llm_key: true, error_page: '/error' });
  const page = await fetch(`${address}/`);
  t.equal(page.status, 200);
  t.match(await (await fetch(`${address}/error`)).text(), 'LLM_API_KEY');
  run.kill('SIGTERM');
  t.equal(await run.exited, 0);
  t.ok(run.lines.some((line) => line.msg === 'the chat service stopped'));
});

t.test('a key the provider refuses: the detailed failure is logged and the process exits 1', async (t) => {
  const provider = await listeningProvider(t, () =>
    json(401, { error: { message: 'Incorrect API key provided', code: 'invalid_api_key' } }),
  );
  const run = serve(t, { LLM_API_KEY: 'sk-refused-key', LLM_BASE_URL: provider.baseURL });
  t.equal(await run.exited, 1);
  const text = JSON.stringify(run.lines);
  t.match(text, /Incorrect API key provided/, 'the reason is in the log');
  t.notMatch(text, 'sk-refused-key', 'the key is not');
  t.ok(
    run.lines.some((line) => line.msg === 'the chat service exits'),
    'the last line made it out before the exit',
  );
});

t.test('a model the local server does not have stops hub serve at once, with one line listing the models it has', async (t) => {
  const provider = await listeningProvider(t, (request) =>
    request.url?.endsWith('/models') ? json(200, modelList('llama3.2:latest', 'qwen2.5:7b', 'nomic-embed-text:latest')) : json(500, {}),
  );
  const baseURL = provider.baseURL.replace('http://', 'http://ollama:sk-in-the-url@');
  const run = serve(t, { LLM_API_KEY: 'ollama', LLM_BASE_URL: provider.baseURL });
  t.equal(await run.exited, 1);
  const fatal = run.lines.filter((line) => line.level === 60);
  t.equal(fatal.length, 1, 'one line');
  t.equal(
    fatal[0]?.msg,
    `chat system failed: chat model: model "gpt-4o-mini" is not offered by ${provider.baseURL}: it offers llama3.2:latest, qwen2.5:7b, nomic-embed-text:latest; exiting with status 1`,
  );
  t.same(provider.calls, ['GET /v1/models'], 'no chat was ever tried');

  const withCredentials = serve(t, { LLM_API_KEY: 'ollama', LLM_BASE_URL: baseURL });
  t.equal(await withCredentials.exited, 1);
  t.notMatch(
    JSON.stringify(withCredentials.lines) + withCredentials.stderr(),
    'sk-in-the-url',
    'credentials in the base URL never reach the log',
  );
});
