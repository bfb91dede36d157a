// The built CLI, run as a user would, against the in-memory hub stand-in.
import t from 'tap';
import { requireBuilt, runBuiltCli } from '../support/built-cli.js';
import { startFakeHub } from '../../testkit/fake-hub.js';
import { testDir } from '../support/test-dir.js';

t.test('create → ls → info → update → disable → enable → delete --yes', async (t) => {
  requireBuilt();
  const hub = await startFakeHub({ token: 'hf_e2e_token' });
  t.teardown(() => hub.close());
  const dir = testDir(t, {});
  // HOME points at an empty folder so that no real token file is read.
  const env = { HF_ENDPOINT: `${hub.url}/`, HF_TOKEN: 'hf_e2e_token', HOME: dir };
  const hub$ = (...args: string[]) => runBuiltCli(['webhooks', ...args], env);

  const created = await hub$(
    'create',
    '--url',
    'https://example.com/hook',
    '--watch',
    'model:gpt2',
    '--domain',
    'repo',
    '--secret',
    's3cret',
  );
  t.equal(created.code, 0, created.stderr);
  const id = /^Created webhook ([0-9a-f]{24})\n$/.exec(created.stdout)?.[1] ?? '';
  t.ok(id, `create prints the id: ${created.stdout}`);
  t.same(hub.requests.at(-1), {
    method: 'POST',
    path: '/api/settings/webhooks',
    authorization: 'Bearer hf_e2e_token',
    body: { watched: [{ type: 'model', name: 'gpt2' }], domains: ['repo'], secret: 's3cret', url: 'https://example.com/hook' },
  });
  t.match(hub.webhooks.get(id), { url: 'https://example.com/hook', disabled: false, secret: 's3cret' });

  const ls = await hub$('ls');
  t.equal(ls.code, 0);
  t.equal(
    ls.stdout,
    `ID                        URL                       STATUS   DOMAINS  WATCHED\n${id}  https://example.com/hook  enabled  repo     model:gpt2\n`,
  );

  const info = await hub$('info', id);
  t.equal(info.code, 0);
  t.match(
    info.stdout,
    new RegExp(`^id +${id}\nstatus +enabled\nurl +https://example.com/hook\nwatched +model:gpt2\ndomains +repo\nsecret +\\(set, hidden`),
  );
  t.notMatch(info.stdout, /s3cret/, 'the secret is not printed');
  t.equal(hub.requests.at(-1)?.path, `/api/settings/webhooks/${id}`);

  const updated = await hub$('update', id, '--url', 'https://example.com/new-hook');
  t.equal(updated.stdout, `Updated webhook ${id}\n`);
  t.same(hub.requests.at(-1)?.body, { url: 'https://example.com/new-hook', watched: [{ type: 'model', name: 'gpt2' }] });
  t.match(hub.webhooks.get(id), { url: 'https://example.com/new-hook', watched: [{ type: 'model', name: 'gpt2' }], domains: ['repo'] });

  const disabled = await hub$('disable', id, '--json');
  t.equal(disabled.code, 0);
  t.match(JSON.parse(disabled.stdout), { id, disabled: true, hasSecret: true });
  t.equal(hub.webhooks.get(id)?.disabled, true);
  t.same(hub.requests.at(-1), {
    method: 'POST',
    path: `/api/settings/webhooks/${id}/disable`,
    authorization: 'Bearer hf_e2e_token',
    body: undefined,
  });

  const enabled = await hub$('enable', id);
  t.equal(enabled.stdout, `Enabled webhook ${id}\n`);
  t.equal(hub.webhooks.get(id)?.disabled, false);

  const refused = await hub$('delete', id);
  t.equal(refused.code, 2, 'no terminal and no --yes: refused');
  t.match(refused.stderr, /Pass --yes/);
  t.ok(hub.webhooks.has(id), 'nothing was deleted');

  const deleted = await hub$('delete', id, '--yes');
  t.equal(deleted.code, 0);
  t.equal(deleted.stdout, `Deleted webhook ${id}\n`);
  t.equal(hub.requests.at(-1)?.method, 'DELETE');
  t.equal(hub.webhooks.size, 0);

  const gone = await hub$('info', id);
  t.equal(gone.code, 4, 'a hub error exits 4');
  t.match(gone.stderr, /^Error: Webhook not found \(HTTP 404 from GET .*, request id fake-req-\d+\)\n$/);
  t.equal(gone.stdout, '');
});

t.test('help has examples; usage errors exit 2 before any request', async (t) => {
  requireBuilt();
  const hub = await startFakeHub();
  t.teardown(() => hub.close());
  const env = { HF_ENDPOINT: hub.url, HF_TOKEN: 'hf_fake_token', HOME: testDir(t, {}) };
  const help = await runBuiltCli(['webhooks', 'create', '--help'], env);
  t.equal(help.code, 0);
  t.match(help.stdout, /EXAMPLES\n {2}\$ hub webhooks create --url https:\/\/example.com\/hook --watch model:gpt2 --domain repo/);
  const bad = await runBuiltCli(['webhooks', 'create', '--url', 'https://example.com/h', '--watch', 'repo:gpt2'], env);
  t.equal(bad.code, 2);
  t.match(bad.stderr, /Invalid --watch type "repo" in "repo:gpt2". Valid types: dataset, model, org, space, user\./);
  const list = await runBuiltCli(['webhooks', 'list', '--json'], env);
  t.same(JSON.parse(list.stdout), []);
  t.equal(hub.requests.length, 1, 'only the list call reached the hub');
});
