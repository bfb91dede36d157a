// `hub webhooks listen` from the built CLI, as a user runs it, against the Hub and localtunnel stand-ins.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ROOT, requireBuilt } from '../support/built-cli.js';
import { eventually } from '../../testkit/eventually.js';
import { type FakeHub, startFakeHub } from '../../testkit/fake-hub.js';
import { freePort } from '../../testkit/free-port.js';
import { startListen, startTarget } from '../../testkit/listen-process.js';
import { startLocaltunnelStandIn } from '../support/localtunnel-stand-in.js';
import { fixtureText } from '../webhooks/helpers.js';
import { testDir } from '../support/test-dir.js';

const TOKEN = 'hf_listen_token';

async function setup(t: Test) {
  requireBuilt();
  const hub = await startFakeHub({ token: TOKEN });
  t.teardown(() => hub.close());
  const dir = testDir(t, {});
  const env = { HF_ENDPOINT: hub.url, HF_TOKEN: TOKEN, HOME: dir, XDG_CACHE_HOME: join(dir, 'cache') };
  return { hub, dir, env, recordFile: join(dir, 'cache', 'emotion-hub', 'listen-webhooks.json') };
}

/** `listen` with --tunnel none on a free port, which is its own public URL here. */
async function listenDirect(t: Test, env: NodeJS.ProcessEnv, action: string[], extra: string[] = []) {
  const port = await freePort();
  const listen = startListen(
    ['--watch', 'model:gpt2', ...action, '--tunnel', 'none', '--port', String(port), '--public-url', `http://127.0.0.1:${port}`, ...extra],
    env,
  );
  t.teardown(() => void listen.child.kill('SIGKILL'));
  const id = await listen.created();
  return { listen, id, port };
}

function deliver(hub: FakeHub, id: string, body: string, headers: Record<string, string>) {
  const webhook = hub.webhooks.get(id)!;
  return fetch(webhook.url!, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
}

t.test('listen forwards each delivery that carries the secret, as it came, and answers with the target’s status', async (t) => {
  const { hub, env, dir, recordFile } = await setup(t);
  let status = 201;
  const target = await startTarget(() => status);
  t.teardown(() => target.close());
  const journal = join(dir, 'deliveries.jsonl');
  const { listen, id, port } = await listenDirect(t, env, ['--forward-to', target.url], ['--journal', journal]);

  const webhook = hub.webhooks.get(id);
  t.equal(webhook?.url, `http://127.0.0.1:${port}/webhooks/listen`, 'the webhook points at the public URL');
  t.same(webhook?.watched, [{ type: 'model', name: 'gpt2' }]);
  t.match(webhook?.secret, /^[A-Za-z0-9_-]{32}$/, 'a fresh random secret');
  t.notMatch(listen.lines.join('\n') + listen.stderr(), webhook!.secret!, 'never printed');
  t.match(JSON.parse(readFileSync(recordFile, 'utf8')), [{ id, endpoint: hub.url }], 'remembered in the cache dir');

  const body = fixtureText('repo-content-update').replace('{', '{   ');
  const answer = await deliver(hub, id, body, { 'x-webhook-secret': webhook!.secret!, 'webhook-id': 'delivery-1', 'x-extra': 'kept' });
  t.equal(answer.status, 201, 'the target’s status');
  t.same(await answer.json(), { target: 201 }, 'and its body');
  t.equal(target.received.length, 1);
  t.equal(target.received[0]?.body.toString('utf8'), body, 'the same body bytes');
  t.match(target.received[0]?.headers, {
    'webhook-id': 'delivery-1',
    'x-webhook-secret': webhook!.secret,
    'x-extra': 'kept',
    'content-type': 'application/json',
  });
  await eventually('the delivery line', () => listen.lines.find((line) => line.includes('repo.content:update')));
  t.match(
    listen.lines.find((line) => line.includes('repo.content:update')),
    /^\d\d:\d\d:\d\d {2}repo\.content:update {2}space Wauplin\/gradio-user-history {2}→ 201 {2}[\d.]+ ms$/,
  );

  status = 500;
  t.equal(
    (await deliver(hub, id, body, { 'x-webhook-secret': webhook!.secret!, 'webhook-id': 'delivery-2' })).status,
    500,
    'a failing target: 5xx, the Hub retries',
  );
  await target.close();
  const unreachable = await deliver(hub, id, body, { 'x-webhook-secret': webhook!.secret!, 'webhook-id': 'delivery-3' });
  t.equal(unreachable.status, 502, 'an unreachable target: 502');
  t.match(await unreachable.json(), { error: /^The forward target could not be reached: http:\/\/127\.0\.0\.1:\d+\/hook: / });

  const forwarded = target.received.length;
  t.equal((await deliver(hub, id, body, { 'webhook-id': 'stranger-1' })).status, 401, 'no secret: 401');
  t.equal((await deliver(hub, id, body, { 'x-webhook-secret': 'guess', 'webhook-id': 'stranger-2' })).status, 403, 'a wrong secret: 403');
  t.equal(target.received.length, forwarded, 'nothing forwarded');
  const refused = await eventually('a line per refused delivery', () => {
    const found = listen.lines.filter((line) => line.includes(' refused '));
    return found.length === 2 && found;
  });
  t.match(refused, [
    /^\d\d:\d\d:\d\d {2}refused {2}POST \/webhooks\/listen {2}→ 401 {2}x-webhook-secret header not set\./,
    /^\d\d:\d\d:\d\d {2}refused {2}POST \/webhooks\/listen {2}→ 403 {2}Invalid webhook secret\./,
  ]);

  listen.child.kill('SIGINT');
  t.equal(await listen.exited(), 0, 'SIGINT: exit 0');
  t.equal(hub.webhooks.size, 0, 'the webhook is deleted');
  t.same(JSON.parse(readFileSync(recordFile, 'utf8')), [], 'and forgotten');
  const entries = readFileSync(journal, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { webhookId: string; status: number; body: unknown; rawBody?: string });
  t.same(
    entries.map((entry) => [entry.webhookId, entry.status]),
    [
      ['delivery-1', 201],
      ['delivery-2', 500],
      ['delivery-3', 502],
    ],
    'the journal has the authenticated deliveries and their answers',
  );
  t.same(entries[0]?.body, JSON.parse(body));
  const printedMs = listen.lines
    .filter((line) => line.includes('repo.content:update'))
    .map((line) => Number(/([\d.]+) ms$/.exec(line)?.[1]));
  t.same(
    printedMs,
    entries.map((entry) => (entry as unknown as { ms: number }).ms),
    'the milliseconds printed are the journal’s, delivery by delivery',
  );
  t.same(
    entries.map((entry) => (entry as unknown as { target?: string }).target),
    [target.url, target.url, target.url],
    'each entry names the forward target',
  );
  t.equal(entries[0]?.rawBody, body);
  t.notMatch(readFileSync(journal, 'utf8'), webhook!.secret!, 'and never the secret');
});

t.test('SIGTERM deletes the webhook too; after a SIGKILL the next listen deletes what it left', async (t) => {
  const { hub, env } = await setup(t);
  const target = await startTarget();
  t.teardown(() => target.close());
  const first = await listenDirect(t, env, ['--forward-to', target.url]);
  first.listen.child.kill('SIGTERM');
  t.equal(await first.listen.exited(), 0, 'SIGTERM: exit 0');
  t.equal(hub.webhooks.size, 0);

  const killed = await listenDirect(t, env, ['--forward-to', target.url]);
  killed.listen.child.kill('SIGKILL');
  await killed.listen.exited();
  t.ok(hub.webhooks.has(killed.id), 'a SIGKILL leaves its webhook');
  const next = await listenDirect(t, env, ['--forward-to', target.url]);
  t.notOk(hub.webhooks.has(killed.id), 'the next listen deleted it');
  t.ok(
    next.listen.lines.includes(
      `Deleted webhook ${killed.id}, left by a listen that did not stop cleanly (pid ${killed.listen.child.pid}).`,
    ),
  );
  next.listen.child.kill('SIGINT');
  t.equal(await next.listen.exited(), 0);
  t.equal(hub.webhooks.size, 0, 'no webhook left behind');
});

t.test('--exec runs the command per delivery with the Hub Job variables; exit 0 is a 200, another a 500', async (t) => {
  const { hub, env, dir } = await setup(t);
  const out = join(dir, 'out.txt');
  const command = `printf '%s|%s|%s|%s\\n' "$WEBHOOK_REPO_ID" "$WEBHOOK_REPO_TYPE" "$WEBHOOK_ID" "$WEBHOOK_SECRET" >> '${out}'; printf '%s' "$WEBHOOK_PAYLOAD" > '${out}.payload'; test "$WEBHOOK_REPO_TYPE" != dataset`;
  const { listen, id } = await listenDirect(t, env, ['--exec', command]);
  const secret = hub.webhooks.get(id)!.secret!;
  const body = fixtureText('repo-created');
  const ok = await deliver(hub, id, body, { 'x-webhook-secret': secret, 'webhook-id': 'e-1' });
  t.equal(ok.status, 200);
  t.same(await ok.json(), { exitCode: 0 });
  t.equal(readFileSync(out, 'utf8'), `julien-c/distilbert-sst2-demo|model|654bbbc16f2ec14d77f109cc|${secret}\n`);
  t.equal(readFileSync(`${out}.payload`, 'utf8'), body, 'WEBHOOK_PAYLOAD is the body as it came');
  const failed = await deliver(hub, id, fixtureText('comment-created'), { 'x-webhook-secret': secret, 'webhook-id': 'e-2' });
  t.equal(failed.status, 500, 'a command that exits 1');
  t.match(await failed.json(), { error: 'The command failed: it exited with status 1.' });
  t.equal((await deliver(hub, id, body, { 'webhook-id': 'e-3' })).status, 401, 'nothing runs without the secret');
  t.equal(readFileSync(out, 'utf8').split('\n').length, 3, 'two runs, not three');

  // The printed sample delivery runs as it is, once given the secret (left out: this output is no terminal).
  const tryIt = listen.lines.find((line) => line.startsWith('Try it: '));
  t.match(
    tryIt,
    /^Try it: hub webhooks send http:\/\/127\.0\.0\.1:\d+\/webhooks\/listen --set repo\.type=model --set repo\.name=gpt2 --secret <this listen's secret> \(shown only/,
    'a sample of what listen watches',
  );
  const printed = (tryIt ?? '').slice('Try it: hub '.length).split(' --secret ')[0]!.split(' ');
  const sent = await promisify(execFile)(process.execPath, ['bin/run.js', ...printed, '--secret', secret], { cwd: ROOT }).catch(
    (error: { stderr?: string }) => ({ stdout: '', stderr: String(error.stderr) }),
  );
  t.equal(sent.stderr, '', 'hub webhooks send succeeded');
  t.equal(readFileSync(out, 'utf8').split('\n').length, 4, 'and the command ran for it');
  t.match(readFileSync(out, 'utf8').split('\n')[2], /^gpt2\|model\|/, 'with the watched repository');
  listen.child.kill('SIGINT');
  t.equal(await listen.exited(), 0);
  t.equal(hub.webhooks.size, 0);
});

t.test('the built-in tunnel gives the public URL the webhook points at', async (t) => {
  const { hub, env } = await setup(t);
  const standIn = await startLocaltunnelStandIn();
  t.teardown(() => standIn.close());
  const target = await startTarget();
  t.teardown(() => target.close());
  const listen = startListen(['--watch', 'user:julien-c', '--forward-to', target.url, '--tunnel-host', standIn.url], env);
  t.teardown(() => void listen.child.kill('SIGKILL'));
  const id = await listen.created();
  const webhook = hub.webhooks.get(id)!;
  t.equal(webhook.url, `${standIn.publicUrl()}/webhooks/listen`);
  await eventually('the tunnel connections', () => standIn.openTunnels() === 2);
  const answer = await deliver(hub, id, fixtureText('repo-config-update'), { 'x-webhook-secret': webhook.secret!, connection: 'close' });
  t.equal(answer.status, 200, 'through the tunnel to the target');
  t.equal(target.received.length, 1);
  listen.child.kill('SIGINT');
  t.equal(await listen.exited(), 0);
  t.equal(hub.webhooks.size, 0);
});

t.test('a tunnel that cannot open says how to go on without one', async (t) => {
  const { hub, env } = await setup(t);
  const closed = await freePort();
  const listen = startListen(['--watch', 'model:gpt2', '--exec', 'true', '--tunnel-host', `http://127.0.0.1:${closed}`], env);
  t.equal(await listen.exited(), 5, 'exit 5: unreachable');
  t.match(listen.stderr(), /The public URL could not open: .*--tunnel none --port N --public-url URL/s);
  t.equal(hub.webhooks.size, 0, 'no webhook created');
});

t.test('usage errors: exit 2 before anything is created', async (t) => {
  const { hub, env } = await setup(t);
  for (const args of [
    ['--watch', 'model:gpt2'],
    ['--watch', 'model:gpt2', '--forward-to', 'not a url', '--tunnel', 'none', '--public-url', 'http://127.0.0.1:1'],
    ['--watch', 'model:gpt2', '--forward-to', 'http://127.0.0.1:1/x', '--tunnel', 'none'],
    ['--watch', 'model:gpt2', '--forward-to', 'http://127.0.0.1:1/x', '--public-url', 'http://127.0.0.1:1'],
  ]) {
    const listen = startListen(args, env);
    t.equal(await listen.exited(), 2, args.join(' '));
  }
  t.equal(hub.requests.length, 0, 'no hub call');
});
