import t, { type Test } from 'tap';
import type nock from 'nock';
import { readFileSync } from 'node:fs';
import type { Bus } from '../../src/bus/bus.js';
import { DEFAULT_EMOTIONS } from '../../src/emotions/model.js';
import { parseEmotionsFile } from '../../src/persistence/emotions-file.js';
import { mockProviderHttp, mockedProvider } from '../../testkit/provider-nock.js';
import { completion, modelList } from '../../testkit/provider-wire.js';
import { harness } from '../support/harness.js';
import { ofType } from '../support/bus-events.js';

// docs/robustness.md, provider faults: what docs/specification.md#states says for each, at startup (the key
// check) and during a chat, in one table. Cases already in
// test/system/startup-and-keys.test.ts and model-failures.test.ts are not repeated: 429 and 401/403 at
// startup, HTTP 500 and a blank reply during a chat.
const KEY = 'sk-test-faults-0123456789';
// Room for a loaded machine: a fault answered at once must never count as a timeout, so the
// provider timeout is 2 s; the timeout case never answers (and holds no timer open).
const ENV = { LLM_API_KEY: KEY, LLM_TIMEOUT_MS: '2000' };

mockProviderHttp(t);

type Fault = (scope: nock.Interceptor) => nock.Scope;

interface Case {
  readonly name: string;
  readonly fault: Fault;
  /** What the one log line at level fatal must say about the cause. */
  readonly cause: RegExp;
}

const FAULTS: Case[] = [
  { name: 'HTTP 500', fault: (i) => i.reply(500, { error: { message: 'internal failure' } }), cause: /HTTP 500.*internal failure/ },
  { name: 'HTTP 503', fault: (i) => i.reply(503, { error: { message: 'overloaded' } }), cause: /HTTP 503.*overloaded/ },
  { name: 'a timeout', fault: (i) => i.reply(() => new Promise<never>(() => undefined)), cause: /timed out/ },
  {
    name: 'connection refused',
    fault: (i) => i.replyWithError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' })),
    cause: /cannot connect \(.*ECONNREFUSED/,
  },
  {
    name: 'a body that is not JSON',
    fault: (i) => i.reply(200, '<html>502 Bad Gateway</html>', { 'content-type': 'application/json' }),
    cause: /JSON|Unexpected token/,
  },
];

const CHAT_ONLY: Case[] = [
  {
    name: 'HTTP 429 (no retries left)',
    fault: (i) => i.reply(429, { error: { message: 'Rate limit reached' } }),
    cause: /HTTP 429.*Rate limit/,
  },
  { name: 'JSON of the wrong shape', fault: (i) => i.reply(200, { result: 'hello' }), cause: /malformed reply: no "choices" list/ },
  { name: 'empty choices', fault: (i) => i.reply(200, { ...completion('x'), choices: [] }), cause: /empty reply/ },
  { name: 'a null content', fault: (i) => i.reply(200, completion(null)), cause: /empty reply/ },
];

const chat = (bus: Bus, message: string) =>
  bus.request({ type: 'chat.requested', session: 'visitor-a', message }, ['chat.replied', 'chat.rejected'], 10_000);
const models = () => mockedProvider().models();

function fatalLine(t: Test, logs: Record<string, unknown>[], cause: RegExp): void {
  const fatal = logs.filter((line) => line.level === 60);
  t.equal(fatal.length, 1, 'one fatal line');
  t.match(String(fatal[0]?.msg), cause, 'it names the cause');
  t.notMatch(JSON.stringify(logs), KEY, 'the key never reaches the log');
}

for (const { name, fault, cause } of FAULTS) {
  t.test(`startup, the key check meets ${name}: failed, one log line naming it, exit 1, nothing written`, async (t) => {
    fault(models());
    const { system, logs, exited, file } = harness(t, { system: 'real', env: ENV });
    system.start();
    t.equal(await system.settled(), 'failed');
    t.equal(await exited, 1);
    fatalLine(t, logs, cause);
    t.throws(() => readFileSync(file), { code: 'ENOENT' }, 'no partial state on disk');
  });
}

t.test('startup, the key check meets JSON of another shape: the provider accepted the key, so it counts as valid', async (t) => {
  models().reply(200, { result: 'not a model list' });
  const { system, exits, logs } = harness(t, { system: 'real', env: ENV });
  system.start();
  t.equal(await system.settled(), 'ready');
  t.same(exits, []);
  t.match(
    logs.find((line) => line.level === 40)?.msg,
    /its answer was not a model list: whether it offers gpt-4o-mini could not be checked/,
  );
});

for (const { name, fault, cause } of [...FAULTS, ...CHAT_ONLY]) {
  t.test(`a chat meets ${name}: a rejection, the state flushed, one log line naming it, exit 1`, async (t) => {
    models().reply(200, modelList());
    fault(mockedProvider().completions());
    const { system, bus, events, logs, exited, file } = harness(t, { system: 'real', env: ENV });
    system.start();
    t.equal(await system.settled(), 'ready');
    const reason = name === 'a timeout' ? 'provider_timeout' : 'provider_failed';
    t.match(await chat(bus, 'what a lovely morning'), { type: 'chat.rejected', reason });
    t.equal(await exited, 1);
    fatalLine(t, logs, cause);
    const saved = parseEmotionsFile(file, readFileSync(file, 'utf8'));
    t.same(saved.emotions, DEFAULT_EMOTIONS, 'the file holds the state as it was: the failed message changed nothing');
    t.same(ofType(events, 'mood.changed'), []);
    t.match(await chat(bus, 'hello again?'), { type: 'chat.rejected', reason: 'system_failed' }, 'no chat after the failure');
  });
}
