import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t, { type Test } from 'tap';
import { ROOT, requireBuilt } from '../support/built-cli.js';
import { testDir } from '../support/test-dir.js';
import { untraced } from '../../testkit/untraced.js';

// The package's entries, imported by name from the built package as a user's code would, each in a
// fresh node process that records every module it loaded (test/support/record-imports.mjs).
const run = promisify(execFile);
const CHAT_MACHINERY = ['xstate', 'openai', 'rxjs', 'sentiment'];
// typebox's ESM build is hundreds of files: the chat's event catalogue needs it, the light entries do not.
const NOT_IN_LIGHT_ENTRIES = [...CHAT_MACHINERY, 'typebox'];

/** Imports `entry` and runs `then` (code using `entry`'s exports as `m`), recording what loaded. */
async function importEntry(t: Test, entry: string, then = ''): Promise<{ packages: Set<string>; exports: string[] }> {
  const record = join(testDir(t, {}), 'loaded.json');
  const { stdout } = await run(
    ...untraced(process.execPath, [
      '--import',
      './test/support/record-imports.mjs',
      '--input-type=module',
      '-e',
      `const m = await import('${entry}'); ${then}; console.log(JSON.stringify(Object.keys(m)))`,
    ]),
    { cwd: ROOT, env: { ...process.env, RECORD_IMPORTS_FILE: record } },
  );
  const loaded = JSON.parse(readFileSync(record, 'utf8')) as string[];
  const packages = new Set(loaded.flatMap((url) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? []));
  return { packages, exports: JSON.parse(stdout) as string[] };
}

t.before(() => requireBuilt());

t.test('package.json exports the four entries of docs/specification.md#contract, with their types', (t) => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
  t.same(
    Object.keys(pkg.exports).filter((key) => key !== './package.json'),
    ['.', './webhooks', './hub', './chat'],
  );
  for (const [key, target] of Object.entries(pkg.exports)) {
    if (key === './package.json') continue;
    t.match(target, { types: /^\.\/dist\/.*\.d\.ts$/, import: /^\.\/dist\/.*\.js$/ }, key);
  }
  t.end();
});

for (const [entry, names] of [
  [
    'emotion-hub/webhooks',
    ['WebhooksServer', 'webhookEndpoint', 'verifyWebhookSecret', 'parseWebhookPayload', 'sendTestDelivery', 'localTunnel'],
  ],
  [
    'emotion-hub/hub',
    ['listWebhooks', 'getWebhook', 'createWebhook', 'updateWebhook', 'enableWebhook', 'disableWebhook', 'deleteWebhook', 'HubApiError'],
  ],
] as const) {
  t.test(`${entry} loads none of the chat machinery (${NOT_IN_LIGHT_ENTRIES.join(', ')})`, async (t) => {
    const { packages, exports } = await importEntry(t, entry);
    for (const name of NOT_IN_LIGHT_ENTRIES) t.notOk(packages.has(name), `${name} is not loaded`);
    t.notOk(packages.has('fastify'), 'not even Fastify: the receiving server loads it at launch');
    t.notOk(packages.has('ajv'), 'nor Ajv, loaded when the first payload is validated');
    t.notOk(packages.has('localtunnel'), 'nor the tunnel client, loaded when a tunnel is asked for');
    for (const name of names) t.ok(exports.includes(name), `exports ${name}`);
  });
}

t.test('emotion-hub/webhooks validates a payload with Ajv, still loading no typebox', async (t) => {
  const { packages } = await importEntry(t, 'emotion-hub/webhooks', `m.validateWebhookPayload(m.samplePayload('discussion.comment'))`);
  t.ok(packages.has('ajv'), 'Ajv validated it');
  t.notOk(packages.has('typebox'), 'typebox is not loaded');
});

t.test('what hub serve loads before it listens holds none of the chat machinery, nor typebox', async (t) => {
  // The composition root: it listens, then imports the actor system (src/service/chat-service.ts).
  const { packages, exports } = await importEntry(t, './dist/service/chat-service.js');
  t.ok(exports.includes('startChatService'));
  t.ok(packages.has('fastify'), 'the server itself is loaded');
  // The bus is there (its Subject, from RxJS's own module); the actors and what they use are not.
  for (const name of ['xstate', 'openai', 'sentiment', 'typebox']) t.notOk(packages.has(name), `${name} is not loaded`);
});

t.test('emotion-hub/chat is the chat service; emotion-hub is everything, chat machinery included', async (t) => {
  const chat = await importEntry(t, 'emotion-hub/chat');
  for (const name of ['startChatService', 'runChatService', 'loadChatConfig', 'buildApp'])
    t.ok(chat.exports.includes(name), `chat exports ${name}`);
  t.notOk(chat.exports.includes('WebhooksServer'));
  const all = await importEntry(t, 'emotion-hub');
  for (const name of ['startChatService', 'WebhooksServer', 'listWebhooks', 'createSystemMachine'])
    t.ok(all.exports.includes(name), `the entry exports ${name}`);
  // The control that shows the recording sees these packages when they are loaded.
  for (const name of NOT_IN_LIGHT_ENTRIES) t.ok(all.packages.has(name), `emotion-hub loads ${name}`);
});
